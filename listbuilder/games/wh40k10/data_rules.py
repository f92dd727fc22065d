"""The rules the user's data states, evaluated by the BattleScribe engine on the roster's
selection tree (engine_roster.py), merged with the muster rules' findings: one mistake, one
finding (lists/wh40k-10e/DECISIONS.md D37-D39).

Each data finding is placed where the roster file states what it is about and cites the data's
file, line and revision. Where a muster rule of the seed and a rule of the data state the same
thing about the same place, the one finding keeps the seed's words and cites both.
"""

from __future__ import annotations

from collections.abc import Callable

from ...battlescribe.validate import RuleError
from ...core.findings import DATA_RULE, Finding
from ...core.names import suggest
from .engine_roster import HELD, Path, SelectionTree, held, unit_models

# Muster rules the data states too (D37): the seed's rule of three, Epic Heroes, Enhancements,
# Warlord and Character, which the data states as limits on the entry the seed's finding names
# ("Lieutenant: at most 3 selections in the roster"), and rules on one place of the roster (an
# Enhancement or a Warlord its bearer may not take; a unit of another faction the data hides; a
# detachment the data does not have or none, which leaves its Detachment choice empty).
SAME_LIMIT = {"too-many-of-datasheet", "epic-hero-repeated", "enhancement-repeated", "too-many-enhancements",
              "several-warlords", "no-character", "no-warlord"}
SAME_PLACE = {"enhancement-not-character", "enhancement-on-epic-hero", "unknown-enhancement",
              "warlord-not-character", "wrong-faction", "unknown-detachment", "no-detachment"}
# Muster rules whose application the data decides where it states the rule itself (D1, D4 as
# revisited): a unit of another Faction keyword the data offers and shows in this army (an ally,
# an Agent); a datasheet whose per-army max the data states (a detachment that makes it Battleline);
# a unit the data makes a Character in this army (a War Dog chosen as a Houndpack Lance Character, D58).
DATA_DECIDES: dict[str, Callable[[SelectionTree, Path], bool]] = {
    "wrong-faction": lambda tree, path: int(path[1]) in tree.units,
    "too-many-of-datasheet": lambda tree, path: tree.limits_in_army(int(path[1])),
    "no-character": lambda tree, path: any(tree.has_keyword(index, CHARACTER) for index in tree.units),
    "enhancement-not-character": lambda tree, path: tree.has_keyword(int(path[1]), CHARACTER),
    "warlord-not-character": lambda tree, path: tree.has_keyword(int(path[1]), CHARACTER),
}
CHARACTER = "Character"  # the data's category of the CHARACTER keyword
WARLORD = "Warlord"  # the data's entry that makes a Character the Warlord
OPTION_HINT = ("`options` name a choice of the unit as the data (and New Recruit) names it, 'Group: Choice' where "
               "the name alone is ambiguous; weapons go in `wargear`")


def data_findings(tree: SelectionTree) -> list[Finding]:
    """The engine's findings on the roster, each placed at the roster path it is about; a message
    the data raises on several entries of one unit ("All models must have the same weapons") is
    one finding, the first entry's; a minimum in the whole army, which New Recruit reports on the
    army and again on a selection of the entry, is the army's one finding (D58)."""
    found: list[Finding] = []
    said: set[tuple[object, ...]] = set()
    errors = tree.editor.errors()
    army_wide = {(e.source, e.message) for e in errors if e.owner_type in ("force", "roster")}
    for error in errors:
        if error.owner_type == "selection" and (error.source, error.message) in army_wide:
            continue
        finding = _placed(error, tree)
        if finding.code == "data-constraint" and _misspelt(tree, finding.path, error.source_ids):
            continue  # the choice is unmade because its name is misspelt: that finding says it
        said_here = (finding.code, finding.path, finding.message.partition(": ")[2])
        if finding.code in ("data-error", "data-warning", "data-info") and said_here in said:
            continue
        said.add(said_here)
        found.append(finding)
    forced = _forced_warlords(tree)
    if forced:  # the army's second Warlord is the one the data selected itself: that finding says why
        found = [f for f in found if not (f.code == "data-constraint" and f.message.partition(":")[0] == WARLORD)]
    found += forced
    for index in tree.unbuilt:
        found.append(Finding("data-unit-unchecked", "the rules the data states on this unit could not be evaluated: "
                             "the data does not let it be selected as the roster states it", DATA_RULE.rstrip(":"),
                             "warning", ("units", index)))
    for path, name, suggestion in tree.unplaced:
        unit = tree.units[int(path[1])]
        place = tree.editor.data.data_place(unit.option.node)
        rule = f"{DATA_RULE} {place}" if place else DATA_RULE.rstrip(":")
        if path[2] == "options":
            found.append(Finding("unknown-option", f"{unit.option.name} has no choice '{name}' in the data", rule,
                                 path=path, suggestion=suggestion or OPTION_HINT))
        elif path[2:] == ("wargear", name, HELD):
            most = held(unit, name)
            found.append(Finding("data-wargear-count", f"{unit.option.name} cannot carry as many {name} as stated: "
                                 f"the data lets it hold {most}", rule, path=path[:4],
                                 suggestion=f"state `{name}: {most}`"))
        elif path[2] == "wargear" and unit_models(unit):  # several models: no placement of them carries all
            found.append(Finding("data-wargear-alternatives", f"{unit.option.name} cannot carry {name} together with "
                                 f"{suggestion} as stated: no placement of them on its models that the data allows "
                                 "carries them all", rule, path=path,
                                 suggestion="state fewer of these weapons (or more models, where the datasheet "
                                            "allows more of them)"))
        elif path[2] == "wargear":
            found.append(Finding("data-wargear-alternatives", f"{unit.option.name} cannot take {name} together "
                                 f"with {suggestion}: the data offers them as alternatives", rule, path=path,
                                 suggestion=f"keep one of {name} and {suggestion}"))
        else:
            found.append(Finding("data-not-offered", f"the data does not offer {name} to {unit.option.name}", rule,
                                 path=path))
    return found


def _forced_warlords(tree: SelectionTree) -> list[Finding]:
    """A unit the data makes the Warlord itself (Trajann Valoris: a minimum of 1 on his Warlord)
    that the roster does not mark so: one finding at the unit, saying which unit to make the Warlord."""
    marked = {path[1]: tree.units[int(path[1])] for path in tree.places.values()
              if len(path) == 3 and path[0] == "units" and path[2] == "warlord"}
    found = []
    for index, unit in tree.units.items():
        warlord = next((s for s in unit.walk() if s.option.name == WARLORD and s.id not in tree.places), None)
        if warlord is None or index in marked:
            continue
        minimum = next(((node, limit) for node, limit in warlord.option.limits if limit.kind == "min"), None)
        place = tree.editor.data.data_place(warlord.option.node, minimum[0] if minimum else None)
        rule = f"{DATA_RULE} {place}, {WARLORD}" + (f", constraint {minimum[1].id}" if minimum else "")
        name = unit.option.name
        others = ", ".join(dict.fromkeys(u.option.name for u in marked.values()))
        found.append(Finding("warlord-required", f"{name} must be the army's Warlord: the data selects its Warlord "
                             "itself", rule, path=("units", index),
                             suggestion=f"make {name} the Warlord (`warlord: true`)"
                                        + (f" instead of {others}" if others else "")))
    return found


def _misspelt(tree: SelectionTree, place: tuple[str | int, ...], group_ids: frozenset[str]) -> bool:
    """Whether a unit's choice left unmade (a group's minimum) is one of its `options` misspelt."""
    if len(place) != 2:
        return False
    _, names = tree.choices_in(int(place[1]), group_ids)
    return any(path[:2] == place and path[2] == "options" and suggest(name, names)
               for path, name, _ in tree.unplaced)


def _placed(error: RuleError, tree: SelectionTree) -> Finding:
    """The finding at its roster place, its rule citing the data's place and the rule's id (a
    constraint's, or `<entry id>/hidden` for a hidden flag or message), by which an event waives it."""
    finding = error.to_finding()
    rule = finding.rule if finding.rule.startswith(DATA_RULE) else f"{DATA_RULE} {finding.rule}"
    if f"constraint {error.constraint_id}" not in rule:
        rule += f", id {error.source}"
    place = tree.place_of(error.path)
    suggestion = None
    if finding.code == "data-constraint" and len(place) == 2:  # a choice of the unit left unmade (D39, D44)
        weapons, names = tree.choices_in(int(place[1]), error.source_ids)
        if names:
            suggestion = f"state it in the unit's `{'wargear' if weapons else 'options'}`, one of: {', '.join(names)}"
    return Finding(finding.code, finding.message, rule, finding.severity, place, suggestion=suggestion)


def merged(seed: list[Finding], data: list[Finding], tree: SelectionTree) -> list[Finding]:
    """The seed's findings, each citing the data's where the data states the same rule at the
    same place, then the data's findings that no seed finding states. Where the data decides
    (DATA_DECIDES) and finds nothing, the seed's finding is dropped."""
    used: set[int] = set()
    result = []
    forced = any(f.code == "warlord-required" for f in data)
    for finding in seed:
        if forced and finding.code == "no-warlord":
            continue  # the data names the one unit that must be the Warlord
        same = [i for i, other in enumerate(data) if i not in used and _same(finding, other)]
        decides = DATA_DECIDES.get(finding.code)
        if decides is not None and not same and decides(tree, finding.path):
            continue
        used.update(same)
        if same:
            rules = "; ".join(dict.fromkeys(data[i].rule for i in same))
            finding = Finding(finding.code, finding.message, f"{finding.rule}; {rules}", finding.severity,
                              finding.path, finding.location, finding.suggestion)
        result.append(finding)
    return result + [other for i, other in enumerate(data) if i not in used]


def _same(seed: Finding, data: Finding) -> bool:
    """Whether a data finding states the seed finding's rule (SAME_LIMIT, SAME_PLACE)."""
    if seed.code in SAME_LIMIT:
        return data.code == "data-constraint" and data.message.partition(":")[0] in seed.message
    return (seed.code in SAME_PLACE and data.path == seed.path[:len(data.path)]
            and (len(data.path) >= 2 or data.path == seed.path)
            and (data.code == "data-hidden" if seed.code == "wrong-faction" else True))
