"""Epic Armageddon: break points, half strength, garrisons and the Break Their Spirit target."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from ...core.findings import Finding
from ...core.names import name_key, plural
from ...listengine.armylist import GameSettings
from ...listengine.datasheet import Datasheet
from ...listengine.engine import BuiltFormation, RosterResult, UnitGroup
from ...listengine.transport import board

OFF_TABLE = frozenset({"AC", "WE/AC", "SC"})  # aircraft and spacecraft are never set up on the table


def strength(built: BuiltFormation) -> int:
    """Units, a war engine counting as its starting damage capacity (3.0, 3.2.4)."""
    return sum(g.count * (g.sheet.damage_capacity or 1 if g.sheet.is_war_engine else 1) for g in built.units)


SCOUTS = frozenset({"scout", "scouts"})


def is_scout(sheet: Datasheet, gained: list[str]) -> bool:
    return not SCOUTS.isdisjoint(sheet.ability_keys) or bool(gained) and any(a.casefold() in SCOUTS for a in gained)


def has(sheet: Datasheet, ability: str) -> bool:
    return ability in sheet.ability_keys


def is_sentries(kinds: list[Datasheet]) -> bool:
    """Robotic sentries (Tau, 5.13.1): no activation, no Blast markers, placed before garrisons.
    `kinds`: the formation's kinds of unit (BuiltFormation.kinds)."""
    return bool(kinds) and all(has(s, "robotic sentry") for s in kinds)


def garrison(built: BuiltFormation, game: GameSettings, sentries: bool) -> tuple[bool, str]:
    """6.1.5: may this formation be set up as a garrison, and why (not). Drones never stop it: it
    may if it may without its drones or with them (Tau, 5.13; D31). Some lists allow only some
    units to garrison (Eldar May Not Garrison). `sentries`: whether it is robotic sentries."""
    others = [g for g in built.units if not has(g.sheet, "drones")]
    verdict = _garrison(built, others or built.units, game, sentries)
    if verdict[0] or not others or len(others) == len(built.units):
        return verdict
    eligible, reason = _garrison(built, built.units, game, sentries)
    return (True, f"{reason}, its drones counted") if eligible else verdict


@cache  # the game's shares, written as text: parsed once
def _fraction(text: str) -> Fraction:
    return Fraction(text)


def _share_of(units: int, share: str) -> int:
    """`share` of `units`, rounding up (in whole numbers: multiplying Fractions is slow)."""
    fraction = _fraction(share)
    return -(-units * fraction.numerator // fraction.denominator)


def _garrison(built: BuiltFormation, counted: list[UnitGroup], game: GameSettings, sentries: bool) -> tuple[bool, str]:
    """6.1.5 applied to the `counted` units of the formation."""
    rules = game.garrison
    assert rules is not None
    units = scouts = fast = 0
    kinds: list[Datasheet] = []
    for group in counted:  # one pass and no generators: every formation of every check is asked
        units += group.count
        if group.count:
            kinds.append(group.sheet)
        if is_scout(group.sheet, group.gained):
            scouts += group.count
        for speed, n in group.speed_counts().items():
            if (speed or 0) > rules.fast_speed:
                fast += n
    if any(s.type in OFF_TABLE for s in kinds):
        return False, "aircraft and spacecraft are not set up on the table (4.2, 4.3)"
    if sentries:
        return False, "robotic sentries are placed before forces are set up (5.13.1)"
    only = built.army.garrison_only
    if only is not None and not {name_key(s.name) for s in kinds} <= {name_key(u) for u in only}:
        return False, f"only formations of {' and '.join(only)} may garrison ({built.army.rule})"
    mode = built.transport_mode
    if mode is not None and not mode.may_garrison:
        rule = mode.rule or (built.transport_rule.rule if built.transport_rule else "")
        return False, f"it is deployed by {mode.name} ({rule.split(';')[0]})"
    if any(s.speed == 0 for s in kinds):
        return True, "it includes a unit with speed 0"
    needed = _share_of(units, rules.scout_share)
    if scouts >= needed:
        return True, (f"{scouts} of {plural(units, 'unit')} {'is a scout' if scouts == 1 else 'are scouts'} "
                      f"(half, rounding up, is {needed})")
    war_engines = [s.name for s in kinds if s.is_war_engine]
    if war_engines:
        return False, f"it has a war engine ({war_engines[0]}) and too few scouts ({scouts} of {units})"
    if fast > rules.max_fast_units:
        return False, (f"{fast} units move more than {rules.fast_speed}cm (at most {rules.max_fast_units}) "
                       f"and too few are scouts ({scouts} of {units})")
    return True, (f"{fast} unit{'s' if fast != 1 else ''} move{'s' if fast == 1 else ''} "
                  f"more than {rules.fast_speed}cm and none is a war engine")


def blast_notes(kinds: list[Datasheet]) -> list[str]:
    """Units whose loss gives a formation of these `kinds` of unit no Blast markers, shown beside its break point."""
    notes = []
    grots = [has(s, "grot") for s in kinds]
    if any(has(s, "drones") for s in kinds):
        notes.append("no Blast markers for drones destroyed (5.13.1 Tau Drones)")
    if any(grots) and not all(grots):
        notes.append("no Blast markers for Grots killed while it has an Ork unit (5.6.3 Grotz)")
    return notes


def check_placement(result: RosterResult) -> None:
    """Characters that must go to the army's largest formation, war engines counting their
    damage capacity (the Feral Ork Warlord)."""
    placed = [u for u in result.army.upgrades if u.in_largest_formation]
    if not placed:
        return
    sizes = {f.index: strength(f) for f in result.formations if f.on_table}
    largest = max(sizes.values(), default=0)
    for upgrade in placed:
        for built in result.formations:
            if any(c.upgrade == upgrade.name for c in built.characters) and sizes.get(built.index, 0) < largest:
                biggest = [f"#{i + 1}" for i, size in sizes.items() if size == largest]
                result.findings.append(Finding(
                    "character-placement", f"{upgrade.name} must go to the largest formation ({' or '.join(biggest)}, "
                    f"{largest} units counting war engines' damage capacity); "
                    f"{built.name} has {sizes.get(built.index, 0)}",
                    upgrade.rule, path=("formations", built.index, "upgrades", upgrade.name)))


def check_speed(result: RosterResult) -> None:
    """Every unit moves at least the list's minimum speed or rides a transport of its formation
    that does (Speed Freeks)."""
    rule = result.army.min_speed
    if rule is None:
        return
    fastest = rule.cm
    for built in result.formations:
        if built.army is not result.army:
            continue
        moving = [(g.sheet, speed) for g in built.units for speed in g.speeds()]  # wargear may change speed
        slow = [s for s, speed in moving if speed is not None and speed < fastest]
        carriers = [s for s, speed in moving if s.transport and (speed or 0) >= fastest]
        left, _ = board(carriers, slow)
        if left and not {s.name for s in left} & set(built.set_aside):  # a refused upgrade's: reported already
            names = ", ".join(sorted({s.name for s in left}))
            result.findings.append(Finding(
                "too-slow", f"{built.name}: {plural(len(left), 'unit')} ({names}) "
                f"{'moves' if len(left) == 1 else 'move'} less than {fastest}cm and "
                f"{'has' if len(left) == 1 else 'have'} no room in a transport that moves {fastest}cm or more",
                rule.rule,
                path=("formations", built.index)))


def derive(result: RosterResult, game: GameSettings) -> None:
    check_placement(result)
    check_speed(result)
    roles: dict[int, tuple[bool, bool]] = {}  # (activates, may be the target), by the formation built once
    for built in result.formations:
        if built.derived:
            continue  # reused from an earlier check (see listengine.engine.build): its values stand
        if built.twin is not None:  # written like an earlier formation: its values are the same
            built.derived = built.twin.derived
            continue
        if not built.on_table:
            shared = ", ".join(f"{g.count} {g.sheet.name}" for g in built.shared)
            built.derived = {"units": 0, "initiative": None, "break_point": None, "strength": None,
                             "half_strength": None, "transports": {},
                             "garrison": {"eligible": False, "reason": f"its units ({shared}) are shared out "
                                                                       f"among other formations"}}
            continue
        kinds = built.kinds()
        types = {s.type for s in kinds}
        on_table = "SC" not in types
        sentries = is_sentries(kinds)
        breaks = on_table and not sentries
        roles[id(built)] = (not sentries, not types <= OFF_TABLE)
        full = strength(built)
        eligible, reason = garrison(built, game, sentries)
        transports = [g for g in built.units if g.source == "transport"]
        built.derived = {
            "units": built.unit_count,
            "initiative": built.definition.initiative or built.army.initiative,
            "break_point": full * built.army.break_rule.blast_markers_per_unit if breaks else None,
            "strength": full if on_table else None,
            "half_strength": full // 2 if on_table else None,
            "garrison": {"eligible": eligible, "reason": reason},
            "transports": {g.sheet.name: g.count for g in transports},
            "notes": blast_notes(kinds),
        }
    for built in result.formations:
        if id(built.twin or built) not in roles:  # reused from an earlier check, or not on the table
            kinds = built.kinds()
            roles[id(built.twin or built)] = (built.on_table and not is_sentries(kinds),
                                              built.on_table and not {s.type for s in kinds} <= OFF_TABLE)
    role = [roles[id(f.twin or f)] for f in result.formations]
    targets = [f for f, (_, target) in zip(result.formations, role) if target]
    top = max((f.points for f in targets), default=0)
    also = set(result.army.spirit_targets)
    result.derived = {
        "activations": sum(activates for activates, _ in role),
        "strategy_rating": result.army.strategy_rating,
        "break_their_spirit": [f.index for f in targets if (f.points == top and top > 0) or f.name in also],
    }
