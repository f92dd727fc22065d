"""Importing the user's BattleScribe data (BSData/wh40k-10e) into a Wh40kCatalog.

A folder holds one game system file (`.gst`) and its catalogues (`.cat`). A faction is a
catalogue that is not a library; it may take its own root entries and those of the catalogues it
links with `importRootEntries` (a chapter takes the Space Marines', which take the Agents of the
Imperium's), and links resolve across every file of the folder.

BattleScribe evaluates conditions while a list is built; the importer evaluates them once, for a
matched-play army of each faction (never a Crusade force), and resolves what the rules pack needs:
the points of every legal model count, visible units and detachments, each enhancement's
detachment. A condition it cannot decide at import time (one on the rest of the roster, or on a
wargear choice) leaves its modifier out, and the report counts it; nothing is guessed.
"""

from __future__ import annotations

import gc
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from .....core.findings import Finding, Location
from ...catalog import IMPORTER_VERSION, BattleSize, Faction, GameSystem, ImportSummary, Unit, Wh40kCatalog
from ..leader_text import parse_bodyguard, parse_leader
from ..xmlfiles import FileChanged, read_ahead
from .factions import FactionReader
from .library import BATTLE_SIZE, RELEASE_BYTES, BadNumber, Library, number
from .units import UnitReader


@dataclass
class ImportResult:
    catalog: Wh40kCatalog | None
    findings: list[Finding]
    left_out: Counter = field(default_factory=Counter)  # what the import could not read, by kind

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]


# --- the files and their ids -------------------------------------------------------------------

def read_folder(folder: Path, library: Library) -> None:
    """Add every readable file of the folder to the library, the game system file first."""
    for xml, problems in read_ahead(sorted(folder.glob("*.gst")) + sorted(folder.glob("*.cat")), library.pool):
        library.findings += problems
        if xml is not None:
            library.add(xml)
    if library.system is None:
        library.findings.append(Finding("bsdata-no-game-system", f"{folder} holds no readable .gst game system file",
                                location=Location(str(folder)),
                                suggestion="point at the folder of a BSData/wh40k-10e clone or release"))


def git_revision(folder: Path) -> str | None:
    """The commit a git clone is at (read from .git, without running git), or None."""
    git = folder / ".git"
    try:
        head = (git / "HEAD").read_text(encoding="utf-8").strip()
        if not head.startswith("ref: "):
            return f"commit {head[:12]}"
        ref = head[5:]
        if (git / ref).is_file():
            return f"commit {(git / ref).read_text(encoding='utf-8').strip()[:12]}"
        for line in (git / "packed-refs").read_text(encoding="utf-8").splitlines():
            if line.endswith(" " + ref):
                return f"commit {line.split()[0][:12]}"
    except OSError:
        return None
    return None


def import_folder(folder: Path, revision: str | None = None) -> ImportResult:
    """Read a BSData folder into a catalog; unreadable files and what was left out are reported.

    The garbage collector is off meanwhile: the import makes hundreds of thousands of objects and almost no
    cycles (a few hundred), and the collector traced the live ones over and over, a tenth of the
    import; it collects what there is once it is on again."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        with ThreadPoolExecutor(max_workers=1) as pool:  # parses files ahead of their use
            return _import(Library([], Counter(), pool), folder, revision)
    finally:
        if enabled:
            gc.enable()


def _import(library: Library, folder: Path, revision: str | None) -> ImportResult:
    findings, left_out = library.findings, library.left_out
    try:
        read_folder(folder, library)
        if library.system is None:
            return ImportResult(None, findings, left_out)
        return ImportResult(read_catalog(library, revision), findings, left_out)
    except BadNumber as bad:  # in a catalogue's or the game system's own attributes
        findings.append(Finding("bsdata-bad-number", f"{bad}; nothing imported", location=library.location(bad.element),
                                suggestion="use the file as published in the BSData repository"))
    except FileChanged as changed:  # between its first reading and a later one
        findings.append(changed.finding)
    return ImportResult(None, findings, left_out)


def read_catalog(library: Library, revision: str | None) -> Wh40kCatalog:
    """Every faction of the folder, its units, detachments and Leader lists."""
    files, findings, left_out = library.files, library.findings, library.left_out
    units: dict[str, Unit] = {}
    unit_reader = UnitReader(library)
    reader = FactionReader(library, units, unit_reader, left_out)
    factions = []
    armies = [x for x in files if x.tag == "catalogue" and x.attributes.get("library") != "true"]
    # The files each army reads (its own and those it links; an entry it links elsewhere is read too).
    uses = [{xml, *library.linked_catalogues(xml, roots_only=False, report=False)} for xml in armies]
    for n, xml in enumerate(armies):
        for wanted in uses[n:n + 2]:  # this army's files, then the next one's, parsed while this one is read
            for file in library.files:
                if file in wanted:
                    file.prefetch(library.pool)
        faction, added = reader.read(xml)
        factions.append(supply_faction_keywords(faction, units, added, library))
        library.release(keep=set().union(*uses[n + 1:]), at_least=RELEASE_BYTES if n + 1 < len(armies) else 0)
    reader.report_unplaced()
    leaders(units, library)
    assert library.system is not None, "read only from a folder with a game system file"
    system = library.system.root
    sizes = [BattleSize(name=m.group(1), points=int(m.group(2)))
             for e in system.iter("selectionEntry") if (m := BATTLE_SIZE.match(e.get("name", "")))]
    return Wh40kCatalog(
        data_revision=revision or f"game system revision {system.get('revision')}", importer=IMPORTER_VERSION,
        system=GameSystem(name=system.get("name", ""), revision=int(number(system, "revision")), battle_sizes=sizes),
        factions=factions, units=units,
        summary=ImportSummary(catalogues=sum(1 for x in files if x.tag == "catalogue"), units=len(units),
                              wargear_rules_left_out=left_out["wargear option rules "
                                                              "(units keep their default loadout)"],
                              warnings=sum(1 for f in findings if f.severity == "warning")))


def supply_faction_keywords(faction: Faction, units: dict[str, Unit], added: dict[str, list[str]],
                            library: Library) -> Faction:
    """A unit the data gives no Faction keyword (the Space Marine Drop Pod) takes, in this army,
    the one the data adds for it here, else the army's own."""
    supplied = {}
    for unit_id in faction.units:
        unit = units[unit_id]
        if unit.faction_keywords:
            continue
        supplied[unit_id] = added.get(unit_id) or [faction.faction_keyword]
        if unit_id not in library.reported:
            library.reported.add(unit_id)
            library.findings.append(Finding(
                "bsdata-faction-supplied", f"{unit.name} has no Faction keyword in the data; in {faction.name} "
                f"it counts as {', '.join(supplied[unit_id])} (and likewise in other armies)", severity="warning",
                location=library.unit_places[unit_id]))
    return faction.model_copy(update={"supplied_faction_keywords": supplied})


def leaders(units: dict[str, Unit], library: Library) -> None:
    """Read every Leader ability and bodyguard permission, names spelled as the datasheets are."""
    canonical = {u.name.casefold(): u.name for u in units.values()}
    for unit in units.values():  # a Leader may name "Bike Squad" for the "Bike Squad [Legends]" datasheet
        canonical.setdefault(unit.name.removesuffix(" [Legends]").casefold(), unit.name)
    for unit_id, unit in list(units.items()):
        texts = {a.name: a.text for a in unit.abilities}
        leader = parse_leader(texts["Leader"], canonical) if "Leader" in texts else None
        if "Leader" in texts and leader is None:
            library.warn("bsdata-leader-unread", f"{unit.name}'s Leader ability names no unit it may be attached "
                         "to in a form the import reads; left out", library.unit_places[unit_id],
                         "Leader abilities naming no unit")
        bodyguard = parse_bodyguard([t for n, t in texts.items() if n != "Leader"], canonical)
        if leader or bodyguard:
            units[unit_id] = unit.model_copy(update={"leader": leader, "bodyguard": bodyguard})
