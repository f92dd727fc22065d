"""An event's rules: the game, the points limit and the armies it allows, which a submitted roster
is checked against instead of trusting its own `points:`."""

# No `from __future__ import annotations` in model modules: pydantic would compile each as text at start-up
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ..listengine.catalog import Catalog
from .findings import Finding
from .names import did_you_mean
from ..listengine.roster import Roster


class Event(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)

    name: str = Field("", description="the event's name, shown on every report")
    game: str | None = Field(None, description="the game played, e.g. epic-armageddon (default: any)")
    points: int | None = Field(None, gt=0, description="the points limit every roster is checked against")
    armies: list[str] = Field([], description="army lists allowed, by id or name (default: any)")

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


def event_problems(event: Event, catalog: Catalog, games: list[str]) -> list[Finding]:
    """Names in the event that the data does not know (`games`: the games that can be checked);
    each finding's path is the event's key."""
    problems: list[Finding] = []
    if event.game is not None and event.game not in games:
        problems.append(Finding("unknown-game", f"unknown game '{event.game}' (known: {', '.join(games)})",
                                path=("game",), suggestion=did_you_mean(event.game, games)))
    games = [event.game] if event.game in catalog.games else list(catalog.games)
    for i, army in enumerate(event.armies):
        if not any(catalog.find_list(game, army) for game in games):
            known = [a for game in games for a in catalog.army_ids(game)]
            problems.append(Finding("unknown-army", f"unknown army '{army}' (known: {', '.join(known)})",
                                    path=("armies", i), suggestion=did_you_mean(army, known)))
    return problems


def limit_differs(limit: int, event: Event) -> Finding | None:
    """The finding for a roster whose own points limit is not the event's."""
    if event.points is None or limit == event.points:
        return None
    return Finding("points-limit-differs", f"the roster's limit is {limit:,} points; {event.called} is played at "
                   f"{event.points:,}", event.rule, path=("points",), suggestion=f"set points: {event.points}")


def states_points(roster: Any) -> bool:
    """Whether the roster's points limit is its `points:` (Epic), not something else (40k's battle size)."""
    return "points" in type(roster).model_fields


def apply_event(roster: Any, event: Event, catalog: Catalog) -> tuple[Any, list[Finding]]:
    """The roster as the event plays it and what it breaks of the event's rules. A roster whose
    limit is its `points:` is played at the event's, so allies caps and per-points allowances use
    the event's figure: a different limit is a finding, none at all (an Epic Remastered roster not
    played to points) is not (lists/epic-remastered/DECISIONS.md). A game whose limit comes
    otherwise (40k's battle size) is compared once checked (`limit_differs`). Armies are list-engine
    armies (`army:`)."""
    findings: list[Finding] = []
    if event.points is not None and states_points(roster) and roster.points != event.points:
        differs = None if roster.points is None else limit_differs(roster.points, event)
        findings += [differs] if differs else []
        roster = roster.model_copy(update={"points": event.points})
    if event.game is not None and roster.game != event.game:
        findings.append(Finding("game-not-allowed", f"the roster is for {roster.game}; {event.called} is played "
                                f"with {event.game}", event.rule, path=("game",)))
    elif event.armies and isinstance(roster, Roster):
        army = catalog.find_list(roster.game, roster.army)
        allowed = [catalog.find_list(roster.game, a) for a in event.armies]
        if army not in allowed:
            names = [a.name for a in allowed if a is not None]
            findings.append(Finding("army-not-allowed", f"{army.name if army else roster.army} may not be played at "
                                    f"{event.called} (allowed: {', '.join(names)})", event.rule, path=("army",)))
    return roster, findings
