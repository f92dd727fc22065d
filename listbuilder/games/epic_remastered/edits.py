"""Edits a player makes to an Epic Remastered roster, as pure functions from one roster to the next
(the editor's undo history keeps each): a detachment or a unit line replaced or removed, and the rows
the editor lists."""

from __future__ import annotations

from .models import DetachmentList, DetachmentPick, ErRoster, UnitPick

Row = tuple[int, int | None]  # (detachment, unit line or None for the detachment itself)


def rows_of(roster: ErRoster) -> list[Row]:
    return [row for d, pick in enumerate(roster.detachments)
            for row in [(d, None), *((d, j) for j in range(len(pick.units)))]]


def units_listed(detachment: DetachmentList) -> str:
    """The units a detachment list offers, as one line to read or to search."""
    return ", ".join(e.unit for _, e in detachment.entries)


def with_detachment(roster: ErRoster, index: int, pick: DetachmentPick | None) -> ErRoster:
    """The roster with detachment `index` replaced (None: removed)."""
    detachments = list(roster.detachments)
    if pick is None:
        del detachments[index]
    else:
        detachments[index] = pick
    return roster.model_copy(update={"detachments": detachments})


def with_unit(roster: ErRoster, d: int, j: int, unit: UnitPick | None) -> ErRoster:
    units = list(roster.detachments[d].units)
    if unit is None:
        del units[j]
    else:
        units[j] = unit
    return with_detachment(roster, d, roster.detachments[d].model_copy(update={"units": units}))
