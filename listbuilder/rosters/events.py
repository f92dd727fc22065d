"""An event's rules applied to a submitted roster: the names the event file gives checked against the
data, and the roster as the event plays it (its points limit, its game, its army)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..core.event import Event, limit_differs, states_points
from ..core.findings import Finding, LoadFailure
from ..core.names import did_you_mean
from ..data.catalog import with_data
from ..games import suggest_game, unknown_game
from ..listengine.catalog import Catalog
from ..listengine.roster import Roster


def event_problems(event: Event, catalog: Catalog, games: list[str]) -> list[Finding]:
    """Names in the event that the data does not know (`games`: the games that can be checked);
    each finding's path is the event's key."""
    problems: list[Finding] = []
    if event.game is not None and event.game not in games:
        problems.append(Finding("unknown-game", unknown_game(catalog, event.game), path=("game",),
                                suggestion=suggest_game(catalog, event.game)))
    games = [event.game] if event.game in catalog.games else list(catalog.games)
    for i, army in enumerate(event.armies):
        if not any(catalog.find_list(game, army) for game in games):
            known = [a for game in games for a in catalog.army_ids(game)]
            problems.append(Finding("unknown-army", f"unknown army '{army}' (known: {', '.join(known)})",
                                    path=("armies", i), suggestion=did_you_mean(army, known)))
    if event.data is not None:
        try:
            with_data(catalog, event.data)
        except LoadFailure as failure:
            problems += [replace(f, path=("data",), location=None) for f in failure.findings]
    return problems


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
