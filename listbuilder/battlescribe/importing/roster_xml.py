"""BattleScribe rosters (.ros, and .rosz zipped) <-> the roster dict form.

The dict follows the XML as the data's dict form does (xml_tree.py): the roster's attributes
(`name`, `gameSystemId`, ...), `costs` and `costLimits` ([{name, typeId, value}]), `forces`, each
force with its `selections`, `categories`, `rules`, `publications` and child `forces`, each
selection with its `number`, `type`, `selections`, `costs`, `categories`, `profiles` (their
`characteristics` [{name, typeId, value}]), `rules` (with `description`), `customName` and
`customNotes`. Whatever else a file holds is kept, so reading, writing and reading again gives
the same dict. Writing always says battleScribeVersion 2.03, the format it writes.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from .safe_xml import parse, xml_bytes
from .vocabulary import (
    CONTAINERS,
    TEXT_ELEMENTS,
    TEXT_KEY,
    TEXT_LIST_ELEMENTS,
    TEXT_VALUE_ITEMS,
    item_name,
    scalar_text,
)
from .xml_tree import TreeReader, root_name
from .zipped import zip_single

ROSTER_NAMESPACE = "http://www.battlescribe.net/schema/rosterSchema"
BATTLESCRIBE_VERSION = "2.03"
XML_DECLARATION = b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'  # as BattleScribe writes it

# The order BattleScribe and New Recruit write attributes in; others follow, alphabetically.
ATTRIBUTE_ORDER = ("id", "name", "entryId", "entryGroupId", "battleScribeVersion", "generatedBy", "gameSystemId",
                   "gameSystemName", "gameSystemRevision", "catalogueId", "catalogueRevision", "catalogueName",
                   "customName", "publicationId", "page", "number", "type", "from", "group", "hidden", "typeId",
                   "typeName", "primary", "value")
# The order of child elements the roster schema's sequences give; others follow, alphabetically.
CHILD_ORDER = ("customNotes", "comment", "description", "readme", "rules", "profiles", "characteristics",
               "selections", "costs", "costLimits", "publications", "categories", "forces", "tags")

_ATTRIBUTE_RANK = {name: rank for rank, name in enumerate(ATTRIBUTE_ORDER)}
_CHILD_RANK = {name: rank for rank, name in enumerate(CHILD_ORDER)}


class RosterWriteError(ValueError):
    """A roster dict that cannot be written as a .ros (a required key missing, a bad value)."""


def read_roster_xml(data: bytes) -> dict[str, Any]:
    """A .ros file's bytes (or a .rosz's) as the roster dict. Raises UnreadableFile."""
    root = parse(xml_bytes(data))
    root_name(root, ("roster",))
    return TreeReader().read(root)


def write_roster_xml(roster: dict[str, Any]) -> bytes:
    """The roster dict as .ros bytes: the same dict always gives the same bytes."""
    _check_required(roster)
    root = etree.Element(f"{{{ROSTER_NAMESPACE}}}roster", nsmap={None: ROSTER_NAMESPACE})
    try:
        _fill(root, {**roster, "battleScribeVersion": BATTLESCRIBE_VERSION}, "roster")
    except RosterWriteError:
        raise
    except (ValueError, TypeError) as error:  # lxml's: a key that is no XML name, a control character
        raise RosterWriteError(f"the roster cannot be written as XML: {error}") from None
    return XML_DECLARATION + etree.tostring(root, xml_declaration=False, encoding="UTF-8", pretty_print=True)


def write_roster_rosz(roster: dict[str, Any]) -> bytes:
    """The roster as a .rosz: a zip holding its .ros, named after the roster."""
    return zip_single(_ros_file_name(roster), write_roster_xml(roster))


def _ros_file_name(roster: dict[str, Any]) -> str:
    name = "".join(ch if ch.isalnum() or ch in " -_()" else "_" for ch in str(roster.get("name", "")))
    return (name.strip() or "roster") + ".ros"


def _check_required(roster: dict[str, Any]) -> None:
    missing = [key for key in ("id", "name", "gameSystemId") if key not in roster]
    if missing:
        raise RosterWriteError(f"a roster needs {', '.join(missing)} to be written")


def _fill(element: etree._Element, source: dict[str, Any], name: str) -> None:
    """Set `element`'s attributes, text and children from its dict."""
    text_key = _text_key(name)
    for key in sorted((k for k, v in source.items() if _is_attribute(k, v, text_key)), key=_attribute_rank):
        element.set(key, _attribute_text(source[key], name, key))
    if text_key in source:
        element.text = str(source[text_key])
    for key in sorted((k for k, v in source.items() if k != text_key and not _is_attribute(k, v, text_key)),
                      key=_child_rank):
        _add_child(element, key, source[key])


def _text_key(name: str) -> str:
    """The key of an element's own text: a characteristic's `value`, else the reader's `$text`."""
    return TEXT_KEY if name in TEXT_VALUE_ITEMS else "$text"


def _is_attribute(key: str, value: Any, text_key: str) -> bool:
    return key != text_key and key not in TEXT_ELEMENTS and isinstance(value, (str, int, float, bool))


def _attribute_text(value: Any, element: str, key: str) -> str:
    try:
        return scalar_text(value)
    except (TypeError, ValueError) as error:
        raise RosterWriteError(f"{element} {key}: {error}") from None


def _add_child(parent: etree._Element, key: str, value: Any) -> None:
    if key in TEXT_ELEMENTS:
        _sub(parent, key).text = str(value)
    elif isinstance(value, dict):
        _fill(_sub(parent, key), value, key)
    elif isinstance(value, list) and _is_container(key, value):
        container, item = _sub(parent, key), item_name(key)
        for entry in value:
            _fill(_sub(container, item), entry, item)
    elif isinstance(value, list):  # an element that repeats: text, or unknown elements
        for entry in value:
            _add_child(parent, key, entry)
    elif isinstance(value, str):
        _sub(parent, key).text = value
    elif value is not None:
        raise RosterWriteError(f"{key} cannot be written: {value!r}")


def _is_container(key: str, value: list[Any]) -> bool:
    """A list written as a list element: a known one, or (as the reader tells an unknown one)
    a plural name holding only objects; any other list is an element that repeats."""
    if key in TEXT_LIST_ELEMENTS:
        return False
    if key in CONTAINERS:
        if not all(isinstance(entry, dict) for entry in value):
            raise RosterWriteError(f"{key} should hold only objects")
        return True
    return key.endswith("s") and all(isinstance(entry, dict) for entry in value)


def _sub(parent: etree._Element, name: str) -> etree._Element:
    return etree.SubElement(parent, f"{{{ROSTER_NAMESPACE}}}{name}")


def _attribute_rank(key: str) -> tuple[int, str]:
    return _ATTRIBUTE_RANK.get(key, len(ATTRIBUTE_ORDER)), key


def _child_rank(key: str) -> tuple[int, str]:
    return _CHILD_RANK.get(key, len(CHILD_ORDER)), key
