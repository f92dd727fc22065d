"""An event's rules applied to a submitted roster: the names the event file gives checked against the
data, and the roster as the event plays it (its points limit, its game, its army); a game's own rules
of an event (40k's Legends, Incursion limits, detachments, keyword caps: core.system.EventRules)
applied to the roster once checked."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..core.event import Event, limit_differs, states_points
from ..core.findings import Finding, LoadFailure
from ..core.names import did_you_mean, name_key
from ..data.catalog import with_data
from ..games import every_system, game_name, suggest_game, system_for, unknown_game
from ..listengine.catalog import Catalog


def event_problems(event: Event, catalog: Catalog, games: list[str]) -> list[Finding]:
    """Names in the event that the data does not know (`games`: the games that can be checked), and
    a game's own rule set for an event of a game that has no such rule; each finding's path is the
    event's key. A game's pack is imported only where the event needs its rules."""
    problems: list[Finding] = []
    if event.data is not None:  # the names are checked against the version the event plays
        try:
            catalog = with_data(catalog, event.data)
        except LoadFailure as failure:
            problems += [replace(f, path=("data",), location=None) for f in failure.findings]
    if event.game is not None and event.game not in games:
        problems.append(Finding("unknown-game", unknown_game(catalog, event.game), path=("game",),
                                suggestion=suggest_game(catalog, event.game)))
    played = [event.game] if event.game in games else games
    answers: dict[str, dict[str, str] | str] = {}  # a game's armies by the names they answer to (loaded once)
    for i, army in enumerate(event.armies):
        if any(catalog.find_list(game, army) for game in played if game in catalog.games):
            continue
        for game in played:
            rules = system_for(game).event_rules
            if rules is not None and game not in answers:
                answers[game] = rules.armies(catalog)
        if any(isinstance(names, dict) and name_key(army) in names for names in answers.values()):
            continue
        known = [a for game in played if game in catalog.games for a in catalog.army_ids(game)]
        known += sorted({name for names in answers.values() if isinstance(names, dict) for name in names.values()})
        unavailable = "; ".join(names for names in answers.values() if isinstance(names, str))
        problems.append(Finding("unknown-army", f"unknown army '{army}' (known: {', '.join(known) or 'none'})",
                                path=("armies", i), suggestion=did_you_mean(army, known) or unavailable or None))
    if event.game_keys:
        problems += _foreign_keys(event, catalog, played)
        for game in played:
            rules = system_for(game).event_rules
            problems += rules.problems(event, catalog) if rules is not None else []
    return problems


def _foreign_keys(event: Event, catalog: Catalog, played: list[str]) -> list[Finding]:
    """A key only other games read, set in an event of one game (Legends in an Epic event): refused,
    where it would otherwise be silently ignored."""
    if event.game is None or event.game not in played:
        return []  # an event of any game: each key applies to the rosters of the games that read it
    rules = system_for(event.game).event_rules
    own = rules.keys if rules is not None else frozenset()
    readers: dict[str, list[str]] = {}
    for system in every_system():
        for key in system.event_rules.keys if system.event_rules is not None else ():
            readers.setdefault(key, []).append(system.name)
    return [Finding("rule-of-another-game", f"{key}: {game_name(catalog, event.game)} has no such rule (it is a "
                    f"rule of {' and '.join(readers[key])} events)", path=(key,), suggestion=f"leave `{key}` out")
            for key in event.game_keys if key not in own and key in readers]


def apply_event(roster: Any, event: Event, catalog: Catalog) -> tuple[Any, list[Finding]]:
    """The roster as the event plays it and what it breaks of the event's rules. A roster whose
    limit is its `points:` is played at the event's, so allies caps and per-points allowances use
    the event's figure: a different limit is a finding, none at all (an Epic Remastered roster not
    played to points) is not (lists/epic-remastered/DECISIONS.md). A game whose limit comes
    otherwise (40k's battle size) applies the event's points with its own rules (`game_rules`).
    Armies here are list-engine armies (`army:`)."""
    findings: list[Finding] = []
    if event.points is not None and states_points(roster) and roster.points != event.points:
        differs = None if roster.points is None else limit_differs(roster.points, event)
        findings += [differs] if differs else []
        roster = roster.model_copy(update={"points": event.points})
    if event.game is not None and roster.game != event.game:
        findings.append(Finding("game-not-allowed", f"the roster is for {roster.game}; {event.called} is played "
                                f"with {event.game}", event.rule, path=("game",)))
    elif event.armies and _is_list_engine_roster(roster):
        army = catalog.find_list(roster.game, roster.army)
        allowed = [catalog.find_list(roster.game, a) for a in event.armies]
        if army not in allowed:
            names = [a.name for a in allowed if a is not None] or event.armies  # else other games' armies
            findings.append(Finding("army-not-allowed", f"{army.name if army else roster.army} may not be played at "
                                    f"{event.called} (allowed: {', '.join(names)})", event.rule, path=("army",)))
    return roster, findings


def _is_list_engine_roster(roster: Any) -> bool:
    """Whether `roster` is the list engine's (its armies are lists): its models are imported only
    when an event names armies, which a roster of another game's check never needs."""
    from ..listengine.roster import Roster

    return isinstance(roster, Roster)


def game_rules(result: Any, event: Event, catalog: Catalog) -> list[Finding]:
    """The checked roster's findings with its game's own rules of the event applied (none for a
    roster of another game than the event's: that is one finding already, `game-not-allowed`)."""
    rules = system_for(result.roster.game).event_rules
    if rules is None or event.game not in (None, result.roster.game):
        return list(result.findings)
    return rules.apply(result, event, catalog)
