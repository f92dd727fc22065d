"""What the new-roster dialog offers for a game. Not in core.system, which every check imports:
these records are wanted only when a roster is started, and creating their classes cost each
check 11 M instructions, 1.2% (docs/speed.md, fifth round)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal


@dataclass(frozen=True)
class ArmyChoice:
    """An army list (a 40k faction) a new roster may be built from, as the new-roster dialog lists it."""

    id: str  # what the roster names
    name: str
    details: str = ""  # one line of what it is (section, strategy rating, sizes)
    keywords: str = ""  # what filtering looks at after the name


@dataclass(frozen=True)
class NewRosterChoices:
    """What a new roster of a game is started from: its armies and its limit, which is a points
    limit the player must give ("points"), one they may give ("optional points": played without
    points otherwise) or one of the data's named battle sizes ("battle size")."""

    armies: list[ArmyChoice]
    limit: Literal["points", "optional points", "battle size"]
    default: int | None = None  # the limit offered first (a battle size's points)
    sizes: list[tuple[str, int]] = field(default_factory=list)  # the battle sizes, (name, points)
    hint: str = ""  # beside the limit
    army_label: str = "Army list"
    unavailable: str = ""  # why no roster can be started (no data installed) and what to do
