"""An event's rules: the game, the points limit and the armies it allows, which a submitted roster
is checked against instead of trusting its own `points:`."""

# No `from __future__ import annotations` in model modules: pydantic would compile each as text at start-up
import re
from dataclasses import replace
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from .findings import Finding
from .system import Catalog


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

    @property
    def called(self) -> str:
        return self.name or "the event"

    @property
    def rule(self) -> str:
        """What findings about the event's rules cite."""
        return f"event rules: {self.name}" if self.name else "event rules"

    def describe(self, catalog: Catalog) -> str:
        """'Autumn Open: Epic Armageddon, 3,000 points, armies: Codex Astartes, Tau'."""
        parts = [catalog.games[self.game].name if self.game in catalog.games else self.game or "",
                 f"{self.points:,} points" if self.points else "",
                 "armies: " + ", ".join(self.armies) if self.armies else ""]
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


DATA_RULE = "data:"  # how a finding from the players' data (not the project's rules) begins its rule


def waived(findings: list[Finding], event: Event) -> list[Finding]:
    """The findings, those from a rule of the data the event waives (by an id their rule cites)
    kept as warnings that say so: the roster is not illegal for them, and the report still shows
    what the event let pass."""
    if not event.waive:
        return findings
    ids = re.compile(r"(?<![\w-])(" + "|".join(re.escape(i) for i in event.waive) + r")(?![\w-])")
    return [replace(f, severity="warning", message=f"{f.message} (waived by {event.called})")
            if f.rule.startswith(DATA_RULE) and ids.search(f.rule) else f for f in findings]
