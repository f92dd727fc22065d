"""Applying one modifier to one set of field values: every modifier type on numbers, text,
booleans and categories. Pure functions, shared by the evaluation and the state writer."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from listbuilder.battlescribe.model import Node, as_bool


@dataclass
class Category:
    """A category a selection is in, and whether it is the primary one."""

    id: str
    name: str
    primary: bool


def format_number(value: float) -> str:
    """A number as BattleScribe writes it in a text field: no '.0' on whole numbers."""
    return str(int(value)) if float(value).is_integer() else repr(value)


def _to_number(text: Any) -> float | None:
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


MESSAGE_FIELDS = ("error", "warning", "info")
TYPE_NAMES = frozenset({"unit", "model", "upgrade", "unit-group", "mount", "crew"})
TYPE_SCOPES = {"unit": ("unit",), "model": ("model",), "upgrade": ("upgrade",), "model-or-unit": ("model", "unit")}


def apply_modifier(modifier: Node, values: dict[str, Any], times: int = 1) -> None:
    """Change one field of ``values`` as a modifier says, ``times`` times where that means anything."""
    kind = str(modifier.get("type"))
    field_name = str(modifier.get("field"))
    raw = modifier.get("value")
    text = "" if raw is None else str(raw)
    if field_name == "category":
        _modify_categories(kind, text, values)
        return
    if field_name == "page":
        return  # New Recruit does not apply page modifiers (modifier-entry-page)
    if field_name in MESSAGE_FIELDS:
        values[field_name] = list(values.get(field_name) or []) + [text]  # New Recruit's messages
        return
    if kind == "hide":
        values["hidden"] = True
        return
    if field_name not in values:
        if kind in ("set",):
            values[field_name] = text
        return
    current = values[field_name]
    joiner = modifier.get("join")
    if kind == "append" and joiner is not None and isinstance(current, str):
        values[field_name] = current + str(joiner) + text if current else text  # New Recruit's join
        return
    values[field_name] = _modified_value(kind, current, text, times)


def _modified_value(kind: str, current: Any, text: str, times: int) -> Any:
    if isinstance(current, bool):
        return as_bool(text) if kind == "set" else current
    if isinstance(current, (int, float)):
        return _modified_number(kind, float(current), text, times)
    return _modified_text(kind, "" if current is None else str(current), text, times)


def _modified_number(kind: str, current: float, text: str, times: int) -> float:
    number = _to_number(text)
    if number is None:
        return current
    if kind == "set":
        return number
    if kind in ("increment", "add"):
        return current + number * times
    if kind == "decrement":
        return current - number * times
    if kind in ("multiply", "cumulative-multiply"):
        return current * number ** times
    if kind == "divide":
        return current / number ** times if number else current
    if kind == "modulo":
        return math.fmod(current, number) if number else current
    if kind in ("power", "cumulative-power"):
        return power(current, number, times)
    if kind == "exponent":  # the value raised to the field
        return power(number, current, 1)
    if kind == "triangular":  # the field's triangular number
        return current * (current + 1) / 2
    if kind == "cumulative-add":
        return current + number * times
    if kind == "floor":
        return float(math.floor(current))
    if kind == "ceil":
        return float(math.ceil(current))
    return current


def power(base: float, exponent: float, times: int) -> float:
    """``base`` raised ``times`` times to ``exponent``; the base when that is not a real number."""
    try:
        result = base
        for _ in range(max(times, 1)):
            result = result ** exponent
        return float(result) if not isinstance(result, complex) else base
    except (OverflowError, ZeroDivisionError):
        return base


def _modified_text(kind: str, current: str, text: str, times: int) -> str:
    if kind == "set":
        return text
    if kind == "append":
        if _to_number(current) is not None:  # New Recruit: a number takes no suffix, it is replaced
            return text
        return (current + " " + text) if current else text
    if kind == "prepend":
        return (text + " " + current) if current else text
    if kind in ("increment", "decrement", "add"):
        number, delta = _to_number(current), _to_number(text)
        if number is None or delta is None:
            return current
        sign = -1 if kind == "decrement" else 1
        return format_number(number + sign * delta * times)
    if kind == "replace":
        old, _, new = text.partition("|")
        return current.replace(old, new) if old else current
    return current


def _modify_categories(kind: str, category_id: str, values: dict[str, Any]) -> None:
    categories: list[Category] = [Category(c.id, c.name, c.primary) for c in values["categories"]]
    existing = next((c for c in categories if c.id == category_id), None)
    if kind in ("add", "increment", "set") and existing is None:
        categories.append(Category(category_id, "", False))
    elif kind in ("remove", "decrement") and existing is not None:
        categories.remove(existing)
    elif kind == "set-primary":
        for category in categories:
            category.primary = category.id == category_id
        if existing is None:
            categories.append(Category(category_id, "", True))
    elif kind == "unset-primary" and existing is not None:
        values["hidden"] = True  # New Recruit hides the selection, primary kept (modifier-category-unset-primary)
    values["categories"] = categories


_NATURAL = re.compile(r"(\d+)")


def natural_key(text: str) -> tuple[Any, ...]:
    """Sort key that puts 'Unit 2' before 'Unit 10', case-insensitively."""
    return tuple(int(p) if p.isdigit() else p.lower() for p in _NATURAL.split(text))
