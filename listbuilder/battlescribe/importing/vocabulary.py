"""What the BattleScribe elements and attributes are, for turning them into plain values.

The readers are generic over element names: these tables say only which elements hold lists
(and what their items are called), which hold text, and which attributes are numbers or booleans.
Anything not named here is kept as it is written (attributes as strings), so New Recruit's and
future additions pass through rather than being dropped.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Literal

from .errors import UnreadableFile

Scalar = str | int | float | bool
Kind = Literal["number", "bool", "text"]

# A list-holding element -> the name of its items.
CONTAINERS: dict[str, str] = {
    # game system and catalogue
    "publications": "publication", "costTypes": "costType", "profileTypes": "profileType",
    "characteristicTypes": "characteristicType", "attributeTypes": "attributeType",
    "categoryEntries": "categoryEntry", "forceEntries": "forceEntry", "sharedForceEntries": "forceEntry",
    "selectionEntries": "selectionEntry", "sharedSelectionEntries": "selectionEntry",
    "selectionEntryGroups": "selectionEntryGroup", "sharedSelectionEntryGroups": "selectionEntryGroup",
    "entryLinks": "entryLink", "rules": "rule", "sharedRules": "rule", "profiles": "profile",
    "sharedProfiles": "profile", "infoGroups": "infoGroup", "sharedInfoGroups": "infoGroup",
    "infoLinks": "infoLink", "categoryLinks": "categoryLink", "catalogueLinks": "catalogueLink",
    "costs": "cost", "constraints": "constraint", "modifiers": "modifier", "modifierGroups": "modifierGroup",
    "conditions": "condition", "conditionGroups": "conditionGroup",
    "localConditionGroups": "localConditionGroup", "repeats": "repeat", "characteristics": "characteristic",
    "attributes": "attribute", "associations": "association", "sharedAssociations": "association",
    "associationLinks": "associationLink", "formatRules": "formatRule",
    # roster
    "forces": "force", "selections": "selection", "categories": "category", "costLimits": "costLimit",
    "tags": "tag",
}

# Elements whose whole content is one text, kept as a string under the element's name.
TEXT_ELEMENTS = frozenset({"description", "readme", "comment", "customNotes"})
# Text elements that may repeat, kept as a list of strings under the element's name.
TEXT_LIST_ELEMENTS = frozenset({"alias"})
# Items whose text is their value (a characteristic's "6\"", an attribute's text): key "value".
TEXT_VALUE_ITEMS = frozenset({"characteristic", "attribute"})
TEXT_KEY = "value"

BOOLEAN_ATTRIBUTES = frozenset({
    "hidden", "collective", "import", "library", "primary", "shared", "includeChildSelections",
    "includeChildForces", "percentValue", "roundUp", "importRootEntries", "flatten", "collapsible",
    "exportable", "noindex", "automatic", "negative",
})
NUMBER_ATTRIBUTES = frozenset({"revision", "gameSystemRevision", "catalogueRevision", "sortIndex",
                               "defaultCostLimit"})
# Attributes that are numbers on some elements only: a modifier's `value` is text ("true", "D6").
NUMBER_ATTRIBUTES_OF: dict[str, frozenset[str]] = {
    "cost": frozenset({"value"}), "costLimit": frozenset({"value"}), "constraint": frozenset({"value"}),
    "condition": frozenset({"value"}), "repeat": frozenset({"value", "repeats"}),
    "localConditionGroup": frozenset({"value", "repeats"}), "association": frozenset({"min", "max"}),
    "conditionGroup": frozenset({"min", "max"}), "selection": frozenset({"number"}),
}

DECIMAL = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)")
BOOLEAN_WORDS = {"true": True, "false": False, "1": True, "0": False}  # xs:boolean's words

_kinds_cache: dict[str, dict[str, Kind]] = {}


def item_name(container: str) -> str:
    """The name of the items of a list element: from the table, else the plural made singular."""
    known = CONTAINERS.get(container)
    if known:
        return known
    if container.endswith("ies"):
        return container[:-3] + "y"
    return container[:-1] if container.endswith("s") else container


def attribute_kinds(element: str) -> dict[str, Kind]:
    """Which attributes of `element` are numbers or booleans (the rest are text)."""
    kinds = _kinds_cache.get(element)
    if kinds is None:
        kinds = {name: "bool" for name in BOOLEAN_ATTRIBUTES}
        kinds.update({name: "number" for name in NUMBER_ATTRIBUTES | NUMBER_ATTRIBUTES_OF.get(element, frozenset())})
        _kinds_cache[element] = kinds
    return kinds


def parse_number(text: str, element: str, attribute: str, line: int | None = None) -> int | float:
    """An attribute's decimal text as an int (no point) or a float."""
    stripped = text.strip()
    if not DECIMAL.fullmatch(stripped):
        raise UnreadableFile(f"<{element} {attribute}=\"{_shorten(text)}\">: {attribute} must be a number", line)
    return float(stripped) if "." in stripped else int(stripped)


def parse_boolean(text: str, element: str, attribute: str, line: int | None = None) -> bool:
    value = BOOLEAN_WORDS.get(text.strip())
    if value is not None:
        return value
    raise UnreadableFile(f"<{element} {attribute}=\"{_shorten(text)}\">: {attribute} must be true or false", line)


def typed(kind: Kind | None, text: str, element: str, attribute: str, line: int | None = None) -> Scalar:
    """An attribute's text as the value its kind says."""
    if kind == "number":
        return parse_number(text, element, attribute, line)
    if kind == "bool":
        return parse_boolean(text, element, attribute, line)
    return text


def number_text(value: int | float) -> str:
    """A number as XML's decimal text: no exponent, and a float keeps its point (320.0)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"not a number: {value!r}")
    if isinstance(value, int):
        return str(value)
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"{value} cannot be written as a decimal")
    text = repr(value)
    if "e" in text or "E" in text:
        text = format(Decimal(text), "f")
    return text if "." in text else text + ".0"


def scalar_text(value: Scalar) -> str:
    """Any attribute value as the text XML holds."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return number_text(value)
    return value


def _shorten(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit] + "…"
