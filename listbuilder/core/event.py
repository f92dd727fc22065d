"""An event's rules: the game, the points limit and the armies it allows, which a submitted roster
is checked against instead of trusting its own `points:`; and the format rules of one game's events
(40k's Legends, Incursion limits, detachments, keyword caps), which that game's system applies
(core.system.EventRules)."""

# No `from __future__ import annotations` in model modules: pydantic would compile each as text at start-up
import re
from dataclasses import replace
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PositiveInt

from .findings import DATA_RULE, Finding

# The keys every game reads; the others are one game's own (core.system.EventRules.keys)
EVERY_GAME = frozenset({"name", "game", "points", "armies", "waive", "data"})


class Event(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)

    name: str = Field("", description="the event's name, shown on every report")
    game: str | None = Field(None, description="the game played, e.g. epic-armageddon (default: any)")
    points: int | None = Field(None, gt=0, description="the points limit every roster is checked against")
    armies: list[str] = Field([], description="army lists allowed, by id or name (default: any)")
    data: str | None = Field(None, description=(
        "the version of the imported data rosters are checked against: a label or revision `listbuilder data "
        "list` shows (default: the default version)"))
    waive: list[str] = Field([], description=(
        "rules of the players' data the event does not apply (the data has bugs; organisers decide), by the id "
        "their findings cite: a constraint's id, or an entry's `<id>/hidden` or `<id>/error`"))
    # Rules of one game's events (EventRules.keys says whose): refused for an event of another game
    legends: Literal["allowed", "warn", "forbidden"] = Field("allowed", description=(
        "Warhammer 40,000: Legends datasheets allowed, allowed with a warning each, or forbidden"))
    incursion_limits: bool = Field(False, description=(
        "Warhammer 40,000: at Incursion, at most 2 units of a datasheet, 4 of a Battleline or Dedicated Transport "
        "one (Chapter Approved 2025-26)"))
    detachments: list[str] = Field([], description="Warhammer 40,000: the detachments allowed, by name (default: any)")
    max_per_keyword: dict[str, PositiveInt] = Field({}, description=(
        "Warhammer 40,000: the most units with a keyword or Faction keyword an army may take, e.g. {'Epic Hero': 2}"))

    @property
    def game_keys(self) -> list[str]:
        """The keys of one game's rules that the event sets (to other than their default)."""
        return [key for key, field in type(self).model_fields.items()
                if key not in EVERY_GAME and getattr(self, key) != field.default]

    @property
    def called(self) -> str:
        return self.name or "the event"

    @property
    def rule(self) -> str:
        """What findings about the event's rules cite."""
        return f"event rules: {self.name}" if self.name else "event rules"

    def describe(self, game_name: str) -> str:
        """'Autumn Open: Epic Armageddon, 3,000 points, armies: Codex Astartes, Tau' (`game_name`: the
        printed name of the event's game, '' where it allows any)."""
        parts = [game_name,
                 f"{self.points:,} points" if self.points else "",
                 "armies: " + ", ".join(self.armies) if self.armies else "",
                 "detachments: " + ", ".join(self.detachments) if self.detachments else "",
                 f"Legends: {self.legends}" if self.legends != "allowed" else "",
                 "Incursion limits" if self.incursion_limits else "",
                 *(f"{keyword}: at most {n}" for keyword, n in self.max_per_keyword.items())]
        return f"{self.name or 'event'}: " + ", ".join(p for p in parts if p)


def limit_differs(limit: int, event: Event) -> Finding | None:
    """The finding for a roster whose own points limit is not the event's."""
    if event.points is None or limit == event.points:
        return None
    return Finding("points-limit-differs", f"the roster's limit is {limit:,} points; {event.called} is played at "
                   f"{event.points:,}", event.rule, path=("points",), suggestion=f"set points: {event.points}")


def states_points(roster: Any) -> bool:
    """Whether the roster's points limit is its `points:` (Epic), not something else (40k's battle size)."""
    return "points" in type(roster).model_fields


def waived(findings: list[Finding], event: Event) -> list[Finding]:
    """The findings, those from a rule of the data the event waives (by an id their rule cites)
    kept as warnings that say so: the roster is not illegal for them, and the report still shows
    what the event let pass."""
    if not event.waive:
        return findings
    ids = re.compile(r"(?<![\w-])(" + "|".join(re.escape(i) for i in event.waive) + r")(?![\w-])")
    return [replace(f, severity="warning", message=f"{f.message} (waived by {event.called})")
            if f.rule.startswith(DATA_RULE) and ids.search(f.rule) else f for f in findings]
