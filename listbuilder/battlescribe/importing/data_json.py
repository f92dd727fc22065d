"""Game system and catalogue JSON (as New Recruit's editor writes and some BSData repositories
publish) -> the same dict form as data_xml.py gives for the XML.

That JSON is the XML turned into objects: attributes as keys, lists under their container's
name, a characteristic's text under `$text`, description and comment as strings; the root
element is wrapped (`{"catalogue": {...}}`, beside a few keys of New Recruit's own). Its values
are typed by their look rather than by the schema (a name "12" becomes the number 12, a
modifier's value "true" the boolean true), so each one is typed again here as the XML's would be."""

from __future__ import annotations

from typing import Any

import orjson

from . import bounds
from .bounds import check_size
from .data_xml import DATA_ROOTS, DataKind, DataRoot
from .errors import UnreadableFile
from .vocabulary import (
    CONTAINERS,
    TEXT_ELEMENTS,
    TEXT_KEY,
    TEXT_VALUE_ITEMS,
    Kind,
    attribute_kinds,
    item_name,
    scalar_text,
    typed,
)

JSON_TEXT_KEY = "$text"


def read_data_json(data: bytes) -> DataRoot:
    """A game system's or catalogue's JSON bytes as a dict. Raises UnreadableFile."""
    check_size(len(data))
    try:
        document = orjson.loads(data)
    except orjson.JSONDecodeError as error:
        raise UnreadableFile(f"this is not well-formed JSON ({error})") from None
    kind, root = _unwrap(document)
    return DataRoot(kind, JsonNormaliser().element(root, kind, 1))


def _unwrap(document: Any) -> tuple[DataKind, dict[str, Any]]:
    """The root element: under "gameSystem" or "catalogue", or the document itself if it says
    which it is (`type`, as BSData's XML roots do) or names a game system (a catalogue)."""
    if not isinstance(document, dict):
        raise UnreadableFile("the JSON is not an object; a game system or catalogue is one")
    for kind in DATA_ROOTS:
        if isinstance(document.get(kind), dict):
            return kind, document[kind]
    if document.get("type") in DATA_ROOTS:
        return document["type"], document
    if "gameSystemId" in document:
        return "catalogue", document
    raise UnreadableFile('the JSON holds neither "gameSystem" nor "catalogue"')


class JsonNormaliser:
    """Types one file's values as the XML reader would, counting objects against the bound."""

    def __init__(self) -> None:
        self.elements = 0

    def element(self, source: dict[str, Any], name: str, depth: int) -> dict[str, Any]:
        self._count(depth)
        kinds = attribute_kinds(name)
        result: dict[str, Any] = {}
        for key, value in source.items():
            if value is None:
                continue
            if key == JSON_TEXT_KEY:
                key = TEXT_KEY if TEXT_KEY not in source else key
            result[key] = self.value(value, key, name, kinds.get(key), depth + 1)
        if name in TEXT_VALUE_ITEMS:
            result.setdefault(TEXT_KEY, "")
        return result

    def value(self, value: Any, key: str, element: str, kind: Kind | None, depth: int) -> Any:
        if isinstance(value, list):
            return [self.value(item, item_name(key), element, None, depth) for item in value]
        if isinstance(value, dict) and key in CONTAINERS and set(value) <= {item_name(key)}:
            return self.value(_items_of_nested(value, item_name(key)), key, element, None, depth)
        if isinstance(value, dict):
            if key in TEXT_ELEMENTS:  # {"$text": "..."} where a string is meant
                return _as_text(value.get(JSON_TEXT_KEY, ""), element, key)
            return self.element(value, key, depth)
        if isinstance(value, str):
            return typed(kind, value, element, key) if kind else value
        if isinstance(value, (bool, int, float)):
            return _retyped(value, kind, element, key)
        raise UnreadableFile(f'"{key}" on {element} holds a value JSON cannot type')

    def _count(self, depth: int) -> None:
        self.elements = bounds.counted(self.elements, depth)


def _items_of_nested(container: dict[str, Any], item: str) -> list[Any]:
    """A list left nested as the XML converter first gives it: {"costs": {"cost": [...]}}, or
    {"cost": {...}} for a single item."""
    items = container.get(item, [])
    return items if isinstance(items, list) else [items]


def _retyped(value: bool | int | float, kind: Kind | None, element: str, key: str) -> Any:
    """A JSON number or boolean as the kind the schema says: text where it is text."""
    if kind == "number" and not isinstance(value, bool):
        return value
    if kind == "bool" and isinstance(value, bool):
        return value
    if kind is None or kind == "text":
        return _integral_text(value)
    return typed(kind, scalar_text(value), element, key)


def _integral_text(value: bool | int | float) -> str:
    """JSON's 2.0 for the text "2" (the converter read it as a number and lost the difference)."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return scalar_text(value)


def _as_text(value: Any, element: str, key: str) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, (bool, int, float)):
        return _integral_text(value)
    raise UnreadableFile(f'"{key}" on {element} should be text')
