"""An lxml element tree -> the dict form, generic over element names (see vocabulary.py).

- attributes become keys, typed: booleans as bool, numbers as int or float, the rest strings;
- a list element (`<costs>`) becomes a list under its own name, of its items' dicts;
- a text element (`<description>`) becomes a string under its name, a repeating one (`<alias>`)
  a list of strings; a characteristic's text is its `value`;
- any other child element is kept under its name (a dict, or a list if it repeats).
"""

from __future__ import annotations

from sys import intern
from typing import Any

from lxml import etree

from . import bounds
from .errors import UnreadableFile
from .vocabulary import (
    BOOLEAN_WORDS,
    CONTAINERS,
    TEXT_ELEMENTS,
    TEXT_KEY,
    TEXT_LIST_ELEMENTS,
    TEXT_VALUE_ITEMS,
    Kind,
    Scalar,
    attribute_kinds,
    item_name,
    typed,
)

SOURCE_LINE = "sourceLine"

_local_names: dict[str, str] = {}


def local_name(tag: str) -> str:
    """A tag without its namespace: `{http://...}catalogue` -> `catalogue`."""
    name = _local_names.get(tag)
    if name is None:
        name = _local_names[tag] = tag.rpartition("}")[2]
    return name


def line_of(element: etree._Element) -> int | None:
    """The element's line in the XML (lxml's `sourceline`)."""
    line = element.sourceline
    return line if isinstance(line, int) else None


class TreeReader:
    """Turns one file's tree into dicts, counting elements against the bound."""

    def __init__(self, source_lines: bool = False):
        self.source_lines = source_lines
        self.elements = 0

    def read(self, root: etree._Element) -> dict[str, Any]:
        return self.element(root, local_name(root.tag), 1)

    def element(self, element: etree._Element, name: str, depth: int) -> dict[str, Any]:
        self._count(depth)
        result = self.attributes(element, name)
        text = element.text
        if name in TEXT_VALUE_ITEMS:
            result[TEXT_KEY] = text or ""
        elif text and text.strip():
            result[TEXT_KEY if TEXT_KEY not in result else "$text"] = text
        for child in element:
            tag = child.tag
            if isinstance(tag, str):
                self.child(result, child, _local_names.get(tag) or local_name(tag), depth + 1)
        if self.source_lines and "id" in result:
            result[SOURCE_LINE] = line_of(element)
        return result

    def attributes(self, element: etree._Element, name: str) -> dict[str, Any]:
        """The attributes, typed; a namespaced one (never in BattleScribe's files) keeps its
        `{namespace}name`, which writing a roster gives back. Names are interned: the dicts of
        a catalogue then share one string per name (a third less memory)."""
        kinds = attribute_kinds(name)
        result: dict[str, Any] = {}
        for raw_key, text in element.attrib.items():
            key = intern(str(raw_key))
            kind = kinds.get(key)
            if kind is None:
                result[key] = text
            elif kind == "bool" and text in BOOLEAN_WORDS:  # the commonest, quickly
                result[key] = BOOLEAN_WORDS[text]
            else:
                result[key] = self.typed(element, kind, str(text), name, key)
        return result

    @staticmethod
    def typed(element: etree._Element, kind: Kind, text: str, name: str, key: str) -> Scalar:
        try:
            return typed(kind, text, name, key)
        except UnreadableFile as error:
            raise UnreadableFile(error.reason, line_of(element)) from None

    def child(self, parent: dict[str, Any], child: etree._Element, name: str, depth: int) -> None:
        if name in CONTAINERS or _looks_like_a_list(child, name):
            self._count(depth)
            parent[name] = self.items(child, item_name(name), depth + 1)
        elif name in TEXT_ELEMENTS:
            self._count(depth)
            parent[name] = child.text or ""
        elif name in TEXT_LIST_ELEMENTS:
            self._count(depth)
            parent.setdefault(name, []).append(child.text or "")
        else:
            _add_repeating(parent, name, self.unknown(child, name, depth))

    def items(self, container: etree._Element, name: str, depth: int) -> list[dict[str, Any]]:
        return [self.element(item, name, depth) for item in container if isinstance(item.tag, str)]

    def unknown(self, element: etree._Element, name: str, depth: int) -> Any:
        """An element the tables do not name: its text if that is all it has, else a dict."""
        if not element.attrib and len(element) == 0:
            self._count(depth)
            return element.text or ""
        return self.element(element, name, depth)

    def _count(self, depth: int) -> None:
        self.elements = bounds.counted(self.elements, depth)


def _looks_like_a_list(element: etree._Element, name: str) -> bool:
    """An unknown element that holds only items named after it (`<formatRules><formatRule/>...`)."""
    if element.attrib or (element.text and element.text.strip()) or not name.endswith("s"):
        return False
    singular = item_name(name)
    children = [child for child in element if isinstance(child.tag, str)]
    return bool(children) and all(local_name(child.tag) == singular for child in children)


def _add_repeating(parent: dict[str, Any], name: str, value: Any) -> None:
    """Keep an unknown child under its name; a second one with that name makes it a list."""
    if name not in parent:
        parent[name] = value
    elif isinstance(parent[name], list):  # unknown children are strings or dicts, never lists
        parent[name].append(value)
    else:
        parent[name] = [parent[name], value]


def root_name(root: etree._Element, expected: tuple[str, ...]) -> str:
    name = local_name(root.tag)
    if name not in expected:
        wanted = " or ".join(f"<{tag}>" for tag in expected)
        raise UnreadableFile(f"the file's root element is <{name}>, not {wanted}: not the kind of "
                             "BattleScribe file expected here", line_of(root))
    return name
