"""A Warhammer 40,000 event's format rules (docs/roster-format.md, Event files; DECISIONS.md D40): the
factions and detachments it allows, its points as a cap within the battle size that holds them, its
Legends setting, the Incursion limits of Chapter Approved 2025-26 and caps on units with a keyword.
Each broken rule is one finding citing the event; a stricter event limit on a datasheet's copies
takes the place of the rule of three's finding rather than adding to it."""

from __future__ import annotations

import re
from dataclasses import replace

from ...core.event import Event, limit_differs
from ...core.findings import Finding
from ...core.names import did_you_mean, name_key
from ...listengine.catalog import Catalog
from .catalog import BattleSize, Faction, Wh40kCatalog
from .rules import CheckedUnit, Wh40kResult, data_of, installed, listed

# Chapter Approved 2025-26 at Incursion: at most 2 units of a datasheet, 4 of a Battleline or
# Dedicated Transport one; the official app enforces it, BSData declined (D40)
INCURSION = "Incursion"
INCURSION_MOST = 2
INCURSION_MOST_TROOPS = 4
TROOPS = ("Battleline", "Dedicated Transport")
CHAPTER_APPROVED = "Chapter Approved 2025-26"
# Findings on how many copies of one datasheet an army takes: the seed's rule of three, the data's
# own per-army limit on the datasheet (battlescribe/validate.py words it so), and the event's
COPIES = {"too-many-of-datasheet", "epic-hero-repeated", "too-many-at-incursion"}
DATA_COPIES = re.compile(r"(?P<name>.+): at most (?P<most>\d+) selections? in the (?:roster|force), \d+ taken")
AT_MOST = re.compile(r"at most (\d+)")


def answers_to(faction: Faction) -> list[str]:
    """What `armies:` may call a faction: its catalogue id, name, short name or Faction keyword."""
    return [faction.id, faction.name, faction.short_name, faction.faction_keyword]


def army_names(catalog: Catalog) -> dict[str, str] | str:
    """Each name a faction answers to (by name_key) and its short name; or why none is known."""
    data = installed(catalog)
    if isinstance(data, str):
        return data
    return {name_key(name): faction.short_name for faction in data.factions for name in answers_to(faction)}


def event_problems(event: Event, catalog: Catalog) -> list[Finding]:
    """Detachments and keywords the event names that no faction or datasheet of the data has."""
    keys = [key for key in ("detachments", "max_per_keyword") if getattr(event, key)]
    if not keys:
        return []  # the data is not loaded for nothing
    data = installed(catalog)
    if isinstance(data, str):
        return [Finding("no-data", f"{keys[0]}: cannot be checked: {data}", path=(keys[0],))]
    return _unknown_detachments(event, data) + _unknown_keywords(event, data)


def _unknown_detachments(event: Event, data: Wh40kCatalog) -> list[Finding]:
    names = sorted({d.name for faction in data.factions for d in faction.detachments})
    known = {name_key(name) for name in names}
    return [Finding("unknown-detachment", f"unknown detachment '{name}': no faction of the data has it",
                    path=("detachments", i), suggestion=did_you_mean(name, names))
            for i, name in enumerate(event.detachments) if name_key(name) not in known]


def _unknown_keywords(event: Event, data: Wh40kCatalog) -> list[Finding]:
    keywords = sorted({k for unit in data.units.values() for k in [*unit.keywords, *unit.faction_keywords]})
    known = {name_key(k) for k in keywords}
    return [Finding("unknown-keyword", f"unknown keyword '{keyword}': no datasheet of the data has it",
                    path=("max_per_keyword", keyword), suggestion=did_you_mean(keyword, keywords))
            for keyword in event.max_per_keyword if name_key(keyword) not in known]


def apply(result: Wh40kResult, event: Event, catalog: Catalog) -> list[Finding]:
    """The event's findings on the checked roster, then the check's (less those an event limit on a
    datasheet's copies says more strictly); the result's points limit becomes the event's where it is
    the lower, so reports show what the army may cost there."""
    data = data_of(catalog, result.roster.faction)
    assert data is not None  # it checked the roster
    result.event_points = event.points
    faction = _faction(result, event)  # a faction refused: its detachment is not refused again
    own = (faction or _detachment(result, event)) + _points(result, event, data.system.battle_sizes)
    findings = list(result.findings)
    limited: list[Finding] = []
    if event.incursion_limits and name_key(result.battle_size.name) == name_key(INCURSION):
        limited, findings = _incursion(result, event, findings)
    return own + limited + _keyword_caps(result, event, limited + findings) + _legends(result, event) + findings


def _faction(result: Wh40kResult, event: Event) -> list[Finding]:
    if not event.armies or {name_key(a) for a in event.armies} & {name_key(n) for n in answers_to(result.faction)}:
        return []
    return [Finding("army-not-allowed", f"{result.faction_name} may not be played at {event.called} (allowed: "
                    f"{', '.join(event.armies)})", event.rule, path=("faction",),
                    suggestion="build the army from a faction the event allows")]


def _detachment(result: Wh40kResult, event: Event) -> list[Finding]:
    """A detachment the event does not allow (an unknown one is the check's finding already)."""
    allowed = {name_key(name) for name in event.detachments}
    if not allowed or result.detachment is None or name_key(result.detachment.name) in allowed:
        return []
    here = [d.name for d in result.faction.detachments if name_key(d.name) in allowed]
    return [Finding("detachment-not-allowed", f"{result.detachment.name} may not be played at {event.called} "
                    f"(allowed: {', '.join(event.detachments)})", event.rule, path=("detachment",),
                    suggestion=f"set detachment: {here[0]}" if len(here) == 1 else
                    f"choose one of {listed(here)}" if here else
                    f"none of {result.faction_name}'s detachments is allowed")]


def _points(result: Wh40kResult, event: Event, sizes: list[BattleSize]) -> list[Finding]:
    """The event's points: the roster must be at the smallest battle size that holds them, and,
    where they are less than that size's, its total may not exceed them (D40)."""
    if event.points is None:
        return []
    played = min((s for s in sizes if s.points >= event.points), key=lambda s: s.points, default=None)
    found = []
    differs = limit_differs(result.limit, event)
    if played is None and differs is not None:
        listed_sizes = ", ".join(f"{s.name} {s.points:,}" for s in sizes)
        found.append(replace(differs, path=("battle_size",), suggestion=(
            f"no battle size holds {event.points:,} points ({listed_sizes}): ask the organiser which one is played")))
    elif played is not None and played.name != result.battle_size.name and differs is not None:
        within = f" (within {played.name}'s {played.points:,})" if played.points != event.points else ""
        found.append(replace(differs, message=differs.message + within, path=("battle_size",),
                             suggestion=f"set battle_size: {played.name}"))
    over = result.total - event.points
    if over > 0 and result.limit != event.points:  # at the event's own battle size the check says so
        found.append(Finding("points-over-event-limit", f"the army costs {result.total:,} points, {over:,} over the "
                             f"{event.points:,} of {event.called}", event.rule, path=("units",),
                             suggestion=f"take {over:,} points of units or wargear out"))
    return found


def _has_in_army(result: Wh40kResult, checked: CheckedUnit, keyword: str) -> bool:
    """Whether the unit has the keyword on its datasheet or as the data gives it in this army (a
    detachment's Battleline grant)."""
    if checked.has(keyword):
        return True
    if result.tree is None or (checked.entry.hover and name_key(keyword) == "aircraft"):
        return False
    return result.tree.has_keyword(checked.index, keyword)


def _incursion(result: Wh40kResult, event: Event, findings: list[Finding]) -> tuple[list[Finding], list[Finding]]:
    """Each datasheet taken more often than Incursion allows: one finding, which takes the place of
    a finding of the check on its copies that allows more (the rule of three, the data's limit);
    none where such a finding allows no more (an Epic Hero, a Titan the data allows once)."""
    by_name: dict[str, list[CheckedUnit]] = {}
    for checked in result.units:
        by_name.setdefault(checked.name, []).append(checked)
    own = []
    for name, units in by_name.items():
        troops = [k for k in TROOPS if _has_in_army(result, units[0], k)]
        most = INCURSION_MOST_TROOPS if troops else INCURSION_MOST
        stated = {i: limit for i, f in enumerate(findings) if (limit := _copies_limit(f, units)) is not None}
        if len(units) <= most or any(limit <= most for limit in stated.values()):
            continue
        findings = [f for i, f in enumerate(findings) if i not in stated]
        own.append(Finding("too-many-at-incursion", f"{len(units)} units of {name}; at most {most} at Incursion"
                           + (f" ({troops[0]})" if troops else "") + f" ({CHAPTER_APPROVED})", event.rule,
                           path=("units", units[most].index, "type"), suggestion=f"take at most {most}"))
    return own, findings


def _copies_limit(finding: Finding, units: list[CheckedUnit]) -> int | None:
    """The most copies of these units' datasheet a finding of the check on them allows, if it is one."""
    if finding.code in COPIES and finding.path[:1] == ("units",) and len(finding.path) > 1 \
            and finding.path[1] in {c.index for c in units}:
        return 1 if finding.code == "epic-hero-repeated" else int(AT_MOST.findall(finding.message)[0])
    data = DATA_COPIES.fullmatch(finding.message) if finding.code == "data-constraint" else None
    return int(data["most"]) if data and name_key(data["name"]) == name_key(units[0].name) else None


def _keyword_caps(result: Wh40kResult, event: Event, findings: list[Finding]) -> list[Finding]:
    """More units with a keyword than the event allows. Copies of a datasheet a finding refuses
    already (the rule of three, an Epic Hero twice) are not counted again: one mistake, one finding."""
    at = {c.index: c for c in result.units}
    refused = set()
    for finding in findings:
        index = finding.path[1] if finding.code in COPIES and len(finding.path) > 1 else None
        first = at.get(index) if isinstance(index, int) else None
        if first is not None:
            refused |= {c.index for c in result.units if c.name == first.name and c.index >= first.index}
    found = []
    for keyword, most in event.max_per_keyword.items():
        having = [c for c in result.units if c.index not in refused and _has_in_army(result, c, keyword)]
        if len(having) > most:
            names = listed([f"#{c.index + 1} {c.name}" for c in having])
            found.append(Finding("too-many-with-keyword", f"{len(having)} units with the keyword {keyword} ({names}); "
                                 f"{event.called} allows at most {most}", event.rule,
                                 path=("units", having[most].index, "type"), suggestion=f"take at most {most} of them"))
    return found


def _legends(result: Wh40kResult, event: Event) -> list[Finding]:
    """Each Legends unit, where the event forbids Legends (an error) or warns of them."""
    if event.legends == "allowed":
        return []
    forbidden = event.legends == "forbidden"
    setting = "does not allow Legends" if forbidden else "allows Legends with a warning"
    fix = "take a datasheet that is not Legends" if forbidden else "check with the organiser that it may be played"
    return [Finding("legends-datasheet", f"{c.name} is a Legends datasheet in the data of {result.data_revision}; "
                    f"{event.called} {setting}", event.rule, "error" if forbidden else "warning",
                    ("units", c.index, "type"), suggestion=fix) for c in result.units if c.unit.legends]

