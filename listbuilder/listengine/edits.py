"""Edits of a roster as a whole: each returns a new Roster and leaves its argument alone."""

from __future__ import annotations

from .roster import Roster, RosterFormation


def _with(roster: Roster, formations: list[RosterFormation]) -> Roster:
    return roster.model_copy(update={"formations": formations})


def add_formation(roster: Roster, type_name: str) -> Roster:
    return _with(roster, [*roster.formations, RosterFormation(type=type_name)])


def duplicate_formation(roster: Roster, index: int) -> Roster:
    """The copy goes right after the original and shares nothing with it; a labelled formation's
    copy is labelled apart: 'Hale' gives 'Hale 2', 'Squad 2' gives 'Squad 3' (or the next free)."""
    original = roster.formations[index]
    label = original.label and next_label(original.label, {f.label.casefold() for f in roster.formations if f.label})
    copy = original.model_copy(deep=True, update={"label": label})
    return _with(roster, [*roster.formations[:index + 1], copy, *roster.formations[index + 1:]])


def next_label(label: str, taken: set[str]) -> str:
    """`label` numbered on to the first number after its own that no label in `taken` (casefolded) has."""
    head, _, tail = label.rpartition(" ")
    numbered = head.strip() and tail.isascii() and tail.isdigit() and len(tail) < 10
    base, number = (head.rstrip(), int(tail) + 1) if numbered else (label, 2)
    while f"{base} {number}".casefold() in taken:
        number += 1
    return f"{base} {number}"


def remove_formation(roster: Roster, index: int) -> Roster:
    return _with(roster, [f for i, f in enumerate(roster.formations) if i != index])


def move_formation(roster: Roster, index: int, offset: int) -> Roster:
    """Move formation `index` by `offset` places, stopping at either end."""
    target = max(0, min(len(roster.formations) - 1, index + offset))
    formations = list(roster.formations)
    formations.insert(target, formations.pop(index))
    return _with(roster, formations)


def replace_formation(roster: Roster, index: int, entry: RosterFormation) -> Roster:
    return _with(roster, [entry if i == index else f for i, f in enumerate(roster.formations)])


def relabel_formation(roster: Roster, index: int, label: str) -> Roster:
    entry = roster.formations[index].model_copy(update={"label": label.strip() or None})
    return replace_formation(roster, index, entry)


def retitle(roster: Roster, name: str, points: int) -> Roster:
    return roster.model_copy(update={"name": name.strip(), "points": points})


def set_purchase(roster: Roster, name: str, number: int) -> Roster:
    """Buy `number` of an army-wide purchase (none: it leaves the roster)."""
    purchases = {key: n for key, n in roster.purchases.items() if key != name}
    if number > 0:
        purchases[name] = number
    return roster.model_copy(update={"purchases": purchases})
