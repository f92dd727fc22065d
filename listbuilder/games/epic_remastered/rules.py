"""Checking an Epic Remastered roster against its army list (seed 004): each detachment led by its
HQ, units only from its detachment list, kinds that do not mix, transports that hold their cargo;
and the values a player needs at the table: units per detachment, the Leadership bonuses, who takes
over command, the army's Strategy Rating. Judgement calls: lists/epic-remastered/DECISIONS.md."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...core.findings import Finding, FindingList, Path
from ...core.names import a, did_you_mean, name_key, plural
from ...listengine.catalog import Catalog
from .catalog import FLYERS, KINDS_RULE, WAR_ENGINES, ErArmy, ErCatalog, kind_of
from .derive import DerivedSheet
from .models import GAME_ID, DetachmentList, DetachmentPick, ErRoster, ListEntry, UnitPick

HQ_RULE = "HQ units and command (L557, L636-642)"
LIST_RULE = "Detachments (L565): units from the detachment list"
TRANSPORT_RULE = "Transport (X) (L3082-3084), Hitch (X) (L2661-2663)"
LIMIT_RULE = "the army list's limits"
POINTS_RULE = "the army list's points"
TYPE_NAMES = {"INF": "Infantry", "VEH": "Vehicle", "WE": "War Engine", "FLY": "Flyer"}  # L397-476
LEADERSHIP_UNITS = 15  # +1 to Leadership tests with 15 or more units (L936)
LEADERSHIP_DC = 15  # war engines: +1 with initial Damage Capacity totalling 15 or more (L3269)
WAR_ENGINE_ABILITIES = ("No Retreat", "Unbreakable", "Stubborn")  # L3187, L3268


@dataclass
class CheckedUnit:
    index: int
    pick: UnitPick
    group: str | None  # the detachment list's group it comes from (Command, Main Force, ...)
    sheet: DerivedSheet | None  # None: no data sheet by that name
    transport: DerivedSheet | None = None
    points: int | None = 0  # None: the army list gives no points for it

    @property
    def units(self) -> int:
        """Units on the table: the unit line and the transports fielded with it."""
        return self.pick.count + (self.pick.transport.count if self.pick.transport else 0)


@dataclass
class CheckedDetachment:
    index: int
    pick: DetachmentPick
    detachment: DetachmentList | None
    units: list[CheckedUnit]
    kind: str | None = None
    derived: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.detachment.name if self.detachment else self.pick.type

    @property
    def title(self) -> str:
        return f"{self.pick.label} ({self.name})" if self.pick.label else self.name

    @property
    def points(self) -> int | None:
        return _total([u.points for u in self.units])


@dataclass
class ErResult:
    roster: ErRoster
    army: ErArmy
    detachments: list[CheckedDetachment]
    findings: list[Finding]
    derived: dict[str, Any] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(d.points or 0 for d in self.detachments)

    @property
    def limit(self) -> int:
        return self.roster.points or 0

    @property
    def valid(self) -> bool:
        return not any(f.severity == "error" for f in self.findings)


def data_of(catalog: Catalog) -> ErCatalog:
    return catalog.pack(GAME_ID) or ErCatalog()


def unknown_names(roster: ErRoster, catalog: Catalog) -> list[Finding]:
    """An unknown army list: the roster cannot be checked at all."""
    data = data_of(catalog)
    if data.find(roster.army) is not None:
        return []
    names = [a.army.id for a in data.armies.values()] + [a.army.name for a in data.armies.values()]
    return [Finding("unknown-army", f"unknown army list '{roster.army}' for {GAME_ID} (known: "
                    f"{', '.join(sorted(data.armies))})", path=("army",), suggestion=did_you_mean(roster.army, names))]


def validate(roster: ErRoster, catalog: Catalog) -> ErResult:
    army = data_of(catalog).find(roster.army)
    assert army is not None, "read_roster refuses a roster of an unknown army list"
    findings = FindingList()
    detachments = [_detachment(i, pick, army, findings) for i, pick in enumerate(roster.detachments)]
    _army_limits(army, detachments, findings)
    result = ErResult(roster, army, detachments, findings.items)
    _points(result, findings)
    result.derived = {
        "strategy_rating": army.army.strategy_rating,
        "detachments": len(detachments),
        "units": sum(d.derived["units"] for d in detachments),
        "points_known": all(d.points is not None for d in detachments),
    }
    return result


def _entry(detachment: DetachmentList, unit: str) -> tuple[str, ListEntry] | None:
    return next(((g, e) for g, e in detachment.entries if name_key(e.unit) == name_key(unit)), None)


def _detachment(index: int, pick: DetachmentPick, army: ErArmy, findings: FindingList) -> CheckedDetachment:
    at: Path = ("detachments", index)
    detachment = army.detachment(pick.type)
    if detachment is None:
        findings.add("unknown-detachment", f"{army.army.name} has no detachment list '{pick.type}' (it has "
                     f"{', '.join(d.name for d in army.army.detachments)})", LIST_RULE, (*at, "type"),
                     suggestion=did_you_mean(pick.type, [d.name for d in army.army.detachments]))
        units = [CheckedUnit(j, u, None, army.book.derived(u.unit)) for j, u in enumerate(pick.units)]
        checked = CheckedDetachment(index, pick, None, units)
        checked.derived = {"units": sum(u.units for u in units)}
        return checked
    # a list whose units' types are not given takes its kind from the first unit fielded whose type is known
    kind = army.kind(detachment) or next((k for p in pick.units if (s := army.book.derived(p.unit))
                                          and (k := kind_of(s.profile.type))), None)
    units = [_unit(j, u, detachment, kind, army, findings, (*at, "units", j)) for j, u in enumerate(pick.units)]
    checked = CheckedDetachment(index, pick, detachment, units, kind)
    _limits(checked, findings, at)
    checked.derived = _derived(checked, findings, at)
    return checked


def _unit(index: int, pick: UnitPick, detachment: DetachmentList, kind: str | None, army: ErArmy,
          findings: FindingList, at: Path) -> CheckedUnit:
    found = _entry(detachment, pick.unit)
    if found is None:
        sheet = army.book.derived(pick.unit)
        checked = CheckedUnit(index, pick, None, sheet, points=None)
        unit_kind = kind_of(sheet.profile.type) if sheet else None
        if sheet is None:
            findings.add("unknown-unit", f"no data sheet for '{pick.unit}' in {army.army.name}", LIST_RULE,
                         (*at, "unit"),
                         suggestion=did_you_mean(pick.unit, [e.unit for _, e in detachment.entries]))
        elif kind is not None and unit_kind is not None and unit_kind != kind:
            findings.add("mixed-detachment", f"{sheet.name} is {a(unit_kind)} unit: it cannot join the {kind} units "
                         f"of {a(detachment.name)} (Infantry and Vehicle, War Engine and Flyer units do not mix)",
                         KINDS_RULE, (*at, "unit"), suggestion=f"field it in a {unit_kind} detachment of its own")
        else:
            findings.add("not-in-list", f"{detachment.name} does not offer {sheet.name} (it offers "
                         f"{', '.join(dict.fromkeys(e.unit for _, e in detachment.entries))})", LIST_RULE,
                         (*at, "unit"),
                         suggestion=did_you_mean(pick.unit, [e.unit for _, e in detachment.entries]))
        return checked
    group, entry = found
    upgrades = []
    for u, name in enumerate(pick.upgrades):
        upgrade = next((up for up in entry.upgrades if name_key(up.name) == name_key(name)), None)
        if upgrade is None:
            offered = ", ".join(up.name for up in entry.upgrades) or "none"
            findings.add("unknown-upgrade", f"{entry.unit} in {detachment.name} has no upgrade '{name}' (upgrades: "
                         f"{offered})", LIST_RULE, (*at, "upgrades", u),
                         suggestion=did_you_mean(name, [up.name for up in entry.upgrades]))
        else:
            upgrades.append(upgrade)
    extra = tuple(ability for upgrade in upgrades for ability in upgrade.abilities)
    checked = CheckedUnit(index, pick, group, army.book.derived(entry.unit, extra))
    cost = _total([entry.points, *(up.points for up in upgrades)])
    checked.points = None if cost is None else cost * pick.count
    if pick.transport is not None:
        _transport(checked, entry, detachment, army, findings, at)
    return checked


def _total(costs: list[int | None]) -> int | None:
    """The sum, or None when any cost is unknown."""
    known = [c for c in costs if c is not None]
    return sum(known) if len(known) == len(costs) else None


def _transport(checked: CheckedUnit, entry: ListEntry, detachment: DetachmentList, army: ErArmy,
               findings: FindingList, at: Path) -> None:
    pick = checked.pick
    ride = pick.transport
    assert ride is not None, "called for a unit fielded with a transport"
    name = next((t for t in entry.transports if name_key(t) == name_key(ride.unit)), None)
    if name is None:
        allowed = " or ".join(entry.transports) or "no transport"
        findings.add("transport-not-allowed", f"{entry.unit} in {detachment.name} may be fielded with {allowed}, "
                     f"not {ride.unit}", LIST_RULE, (*at, "transport", "unit"),
                     suggestion=did_you_mean(ride.unit, entry.transports))
        checked.points = None
        return
    carrier = army.sheet(name)
    checked.transport = carrier
    own = _entry(detachment, name)
    cost = own[1].points if own else None
    checked.points = None if cost is None or checked.points is None else checked.points + cost * ride.count
    ability, capacity = carrier.carries or ("Transport", None)
    cargo = checked.sheet.profile.type if checked.sheet else None
    if ability == "Hitch" and cargo not in (None, "INF"):
        assert checked.sheet is not None
        findings.add("hitch-infantry-only", f"{checked.sheet.name} is {a(TYPE_NAMES[cargo])} unit: "
                     f"{carrier.name} may carry only Infantry units (Hitch ({capacity or 'X'}))", TRANSPORT_RULE,
                     (*at, "transport", "unit"), suggestion=f"field {checked.sheet.name} without {carrier.name}")
    if capacity is not None and pick.count > capacity * ride.count:
        needed, sheet = -(-pick.count // capacity), checked.sheet
        assert sheet is not None  # the catalog check finds every entry's data sheet
        findings.add("transport-capacity", f"{plural(pick.count, sheet.name)} do not fit in "
                     f"{plural(ride.count, carrier.name)}: each carries {capacity} ({ability} ({capacity})), "
                     f"{capacity * ride.count} in all", TRANSPORT_RULE, (*at, "transport", "count"),
                     suggestion=f"field {plural(needed, carrier.name)}, or at most "
                                f"{plural(capacity * ride.count, sheet.name)}")


def _limits(checked: CheckedDetachment, findings: FindingList, at: Path) -> None:
    """The detachment list's per-entry and per-upgrade limits."""
    detachment = checked.detachment
    assert detachment is not None, "called for a detachment of the army list"
    counts: dict[str, int] = {}
    for unit in checked.units:
        counts[name_key(unit.pick.unit)] = counts.get(name_key(unit.pick.unit), 0) + unit.pick.count
        if unit.pick.transport:
            key = name_key(unit.pick.transport.unit)
            counts[key] = counts.get(key, 0) + unit.pick.transport.count
    for _, entry in detachment.entries:
        taken = counts.get(name_key(entry.unit), 0)
        if entry.max is not None and taken > entry.max:
            findings.add("too-many", f"{plural(taken, entry.unit)} in {checked.title}; {detachment.name} allows at "
                         f"most {entry.max}", LIMIT_RULE, at, suggestion=f"remove {taken - entry.max}")
        if taken < entry.min:
            findings.add("too-few", f"{plural(taken, entry.unit)} in {checked.title}; {detachment.name} needs at "
                         f"least {entry.min}", LIMIT_RULE, at, suggestion=f"add {entry.min - taken}")
        for upgrade in entry.upgrades:
            with_it = sum(u.pick.count for u in checked.units if name_key(u.pick.unit) == name_key(entry.unit)
                          and name_key(upgrade.name) in map(name_key, u.pick.upgrades))
            if upgrade.max is not None and with_it > upgrade.max:
                findings.add("upgrade-limit", f"{plural(with_it, entry.unit)} in {checked.title} take {upgrade.name}; "
                             f"at most {upgrade.max} may", LIMIT_RULE, at)


def _present(checked: CheckedDetachment) -> dict[str, int]:
    """Unit name key -> how many of it the detachment has, transports included."""
    present: dict[str, int] = {}
    for unit in checked.units:
        if unit.sheet is not None:
            present[name_key(unit.sheet.name)] = present.get(name_key(unit.sheet.name), 0) + unit.pick.count
        if unit.transport is not None and unit.pick.transport is not None:
            key = name_key(unit.transport.name)
            present[key] = present.get(key, 0) + unit.pick.transport.count
    return present


def _derived(checked: CheckedDetachment, findings: FindingList, at: Path) -> dict[str, Any]:
    detachment = checked.detachment
    assert detachment is not None, "called for a detachment of the army list"
    present = _present(checked)
    # the chain of command as fielded: each rank's units present with their numbers, most senior first (L640-642)
    ranks = [[(name, present[name_key(name)]) for name in rank if present.get(name_key(name))]
             for rank in detachment.ranks]
    ranks = [rank for rank in ranks if rank]
    command = " or ".join(" or ".join(rank) for rank in detachment.ranks)
    hq: str | None = None
    candidates = [name for name, _ in ranks[0]] if ranks else []
    if not ranks:
        findings.add("no-hq", f"{checked.title} has no HQ unit: its chain of command starts with {command}, and it has "
                     "none of them", HQ_RULE, at, suggestion=f"add {a(detachment.ranks[0][0])} to lead it")
    elif checked.pick.hq is not None:
        hq = next((c for c in candidates if name_key(c) == name_key(checked.pick.hq)), None)
        if hq is None:
            findings.add("hq-not-senior", f"{checked.pick.hq} cannot lead {checked.title}: the most senior unit "
                         f"present is {' or '.join(candidates)}", HQ_RULE, (*at, "hq"),
                         suggestion=did_you_mean(checked.pick.hq, candidates))
    elif len(candidates) == 1:
        hq = candidates[0]
    # who takes over, in turn: every unit of the chain present but the HQ itself
    successors = [f"another {name}" if name == hq else name
                  for rank in ranks for name, count in rank if count - (name == hq) > 0]
    units = sum(u.units for u in checked.units)
    derived: dict[str, Any] = {
        "units": units, "kind": checked.kind, "hq": hq,
        "hq_choices": candidates if hq is None else [],
        "takes_over": successors,
        "leadership_bonus": units >= LEADERSHIP_UNITS,
        "abilities": list(detachment.abilities),
    }
    if checked.kind == WAR_ENGINES:
        capacities = [(u.sheet.damage_capacity if u.sheet else None, u.pick.count) for u in checked.units]
        known = sum(dc * count for dc, count in capacities if dc is not None)
        derived["damage_capacity"] = known if all(dc is not None for dc, _ in capacities) else None
        derived["damage_capacity_known"] = known
        # a Damage Capacity the data leaves out might reach the total: the bonus is then unknown (None)
        derived["leadership_bonus"] = (True if derived["leadership_bonus"] or known >= LEADERSHIP_DC
                                       else False if derived["damage_capacity"] is not None else None)
        derived["abilities"] = list(dict.fromkeys([*WAR_ENGINE_ABILITIES, *detachment.abilities]))
    if checked.kind == FLYERS:
        derived["abilities"] = list(dict.fromkeys(["never Broken, no Blast markers (L3622, L3626)",
                                                   *detachment.abilities]))
    return derived


def _army_limits(army: ErArmy, detachments: list[CheckedDetachment], findings: FindingList) -> None:
    for limit in army.army.limits:
        if limit.unit is not None:
            taken = sum(_present(d).get(name_key(limit.unit), 0) for d in detachments if d.detachment)
            what: str | None = limit.unit
        else:
            taken = sum(1 for d in detachments
                        if d.detachment and name_key(d.detachment.name) == name_key(limit.detachment))
            what = limit.detachment
        if taken > limit.max:
            findings.add("army-limit", f"the army has {taken} {what}; {army.army.name} allows at most {limit.max}",
                         LIMIT_RULE, ("detachments",), suggestion=f"remove {taken - limit.max}")


def _points(result: ErResult, findings: FindingList) -> None:
    if result.roster.points is None:
        return
    unknown = [d.title for d in result.detachments if d.points is None]
    if unknown:
        findings.add("points-unknown", f"{result.army.army.name} gives no points for some units of "
                     f"{', '.join(unknown)}; the total of {result.total:,} counts only what it prices",
                     POINTS_RULE, ("points",), severity="warning")
    if result.total > result.roster.points:
        findings.add("points-over-limit", f"the army costs {result.total:,} points; the limit is "
                     f"{result.roster.points:,}", POINTS_RULE, ("points",),
                     suggestion=f"remove {result.total - result.roster.points:,} points")
