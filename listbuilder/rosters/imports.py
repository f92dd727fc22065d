"""Lists in the forms other tools write, read into rosters: the form told from the file's bytes.

40k: the official app's text, New Recruit's text (both of its layouts) and BattleScribe rosters,
`.ros` (XML) and `.rosz` (the same, zipped). Each is untrusted: the file and the unzipped roster
are bounded in size, and the XML is parsed as the BSData importer parses catalogues (no DTD, no
entities, no network). The readers of the text forms and the placing of names are the game's
(systems/wh40k10/listtext.py, lists.py); here are the bytes, the zip and the XML.
"""

from __future__ import annotations

import io
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path as FsPath
from typing import TYPE_CHECKING

from ..core.catalog import Catalog
from ..core.findings import Finding, LoadFailure, Location
from ..data.yamlfile import MAX_BYTES

if TYPE_CHECKING:
    from lxml import etree

    from ..systems.wh40k10.lists import ImportedList, ListedArmy, ListedUnit

# The 40k pack is imported where a list is read, so that checking a YAML roster never loads it.

BATTLESCRIBE = "a BattleScribe roster"
LIST_SUFFIXES = (".ros", ".rosz", ".txt")  # what `check` picks up in a folder besides YAML rosters
MAX_UNZIPPED = 8 * MAX_BYTES  # a 3,000-point .ros is well under 1 MB; a zip bomb is refused unread
ZIP_MAGIC = b"PK\x03\x04"
POINTS_TYPE = "pts"
CONFIGURATION = {"show/hide options", "game type"}  # army-wide settings with nothing to import


def _unreadable(shown: str, message: str, line: int | None = None, suggestion: str | None = None) -> LoadFailure:
    return LoadFailure([Finding("list-unreadable", message, location=Location(shown, line), suggestion=suggestion)])


def read_bounded(path: FsPath, shown: str) -> bytes:
    """The file's bytes, at most one past MAX_BYTES (read_list_data refuses those)."""
    try:
        with path.open("rb") as stream:
            return stream.read(MAX_BYTES + 1)
    except OSError as error:
        raise _unreadable(shown, f"cannot read the file: {error.strerror or error}") from None


def _unzipped(data: bytes, shown: str) -> bytes:
    """The one .ros inside a .rosz, read no further than MAX_UNZIPPED whatever its header claims."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = [m for m in archive.infolist() if m.filename.lower().endswith(".ros")]
        if len(members) != 1:
            raise _unreadable(shown, f"a .rosz holds one .ros roster; this one holds {len(members)}")
        with archive.open(members[0]) as stream:
            unzipped = stream.read(MAX_UNZIPPED + 1)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, EOFError, RuntimeError) as error:
        raise _unreadable(shown, f"not a readable zip archive ({error})") from None
    if len(unzipped) > MAX_UNZIPPED:
        raise _unreadable(shown, f"the roster inside is larger than {MAX_UNZIPPED:,} bytes unzipped; refused")
    return unzipped


def is_list(path: FsPath) -> bool:
    """A file `check` reads as another tool's list rather than as a YAML roster."""
    return path.suffix.lower() in LIST_SUFFIXES


def list_form(data: bytes) -> str | None:
    """Which form of 40k list the bytes are, if any (a zip archive is taken for a .rosz)."""
    if data.startswith(ZIP_MAGIC) or data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
        return BATTLESCRIBE
    from ..systems.wh40k10.listtext import text_form

    try:
        return text_form(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        return None


def read_list(path: FsPath, catalog: Catalog, shown: str | None = None, data: bytes | None = None) -> ImportedList:
    """Read a list file in any form this knows, against the installed data (`data`: its bytes, if
    already read). Raises LoadFailure when the file cannot be read or its form is not known; a list
    that reads has its findings in the result."""
    shown = shown or str(path)
    return read_list_data(read_bounded(path, shown) if data is None else data, shown, catalog)


def read_list_data(data: bytes, shown: str, catalog: Catalog) -> ImportedList:
    """The same, from the bytes of a file (at most MAX_BYTES) or of standard input."""
    from ..systems.wh40k10.catalog import GAME_ID
    from ..systems.wh40k10.lists import to_roster
    from ..systems.wh40k10.listtext import APP, read_app_text, read_new_recruit

    if len(data) > MAX_BYTES:
        raise _unreadable(shown, f"the file is larger than {MAX_BYTES:,} bytes")
    form = list_form(data)
    if form is None:
        raise _unreadable(shown, "not a list form listbuilder reads", suggestion=(
            "export the list as text from the official app or New Recruit, or as a BattleScribe .ros/.rosz file"))
    if form == BATTLESCRIBE:
        listed = read_battlescribe(_unzipped(data, shown) if data.startswith(ZIP_MAGIC) else data, shown)
    else:
        listed = (read_app_text if form == APP else read_new_recruit)(data.decode("utf-8-sig"))
    wh40k = catalog.imported(GAME_ID)
    if wh40k is None:
        raise _unreadable(shown, "no Warhammer 40,000 data is installed",
                          suggestion="import your copy of the BSData wh40k-10e files: listbuilder data import bsdata PATH")
    imported = to_roster(listed, wh40k, shown)
    if imported.roster is None:
        raise LoadFailure(imported.findings)
    return imported


@dataclass
class _Selections:
    """A BattleScribe roster's selections, walked once: the army's choices and its units."""

    listed: ListedArmy

    def read(self, root: etree._Element) -> None:
        listed = self.listed
        listed.name = root.get("name", "")
        total = root.find("costs/cost[@name='pts']")
        if total is not None:
            listed.total, listed.total_line = round(float(total.get("value", "0"))), total.sourceline
        for force in root.iterfind("forces/force"):
            if listed.faction is None:
                listed.faction, listed.faction_line = force.get("catalogueName"), force.sourceline
            revision = force.get("catalogueRevision", "")
            if revision.isdigit():
                listed.built_with.append((force.get("catalogueId", ""), int(revision), force.sourceline))
            for selection in force.iterfind("selections/selection"):
                self.top(selection)

    def top(self, selection: etree._Element) -> None:
        name = selection.get("name", "")
        chosen = selection.find("selections/selection")
        if name.casefold() == "battle size" and chosen is not None:
            size = re.sub(r"^\d+\.\s*|\s*\(.*\)\s*$", "", chosen.get("name", ""))
            self.listed.battle_size, self.listed.battle_size_line = size, chosen.sourceline
        elif name.casefold().startswith("detachment") and chosen is not None:
            self.listed.detachment, self.listed.detachment_line = chosen.get("name"), chosen.sourceline
        elif selection.get("type") in ("unit", "model"):
            self.listed.units.append(self.unit(selection))
        elif name.casefold() not in CONFIGURATION:
            self.listed.unread(selection.sourceline, name, "not a unit or a choice of battle size or detachment")

    def unit(self, selection: etree._Element) -> ListedUnit:
        from ..systems.wh40k10.lists import ListedUnit

        listed = ListedUnit(selection.get("name", ""), selection.sourceline,
                            entry_id=selection.get("entryId", "").rpartition("::")[2] or None)
        models = [s for s in selection.iter("selection") if s.get("type") == "model"]
        listed.models = sum(int(s.get("number", "1")) for s in models) or None
        listed.points = round(sum(float(c.get("value", "0")) for c in selection.iter("cost")
                                  if c.get("name") == POINTS_TYPE))
        for chosen in selection.iter("selection"):
            if chosen.get("name", "").casefold() == "warlord":
                listed.warlord = True
            elif chosen.get("group", "").casefold().startswith("enhancement"):
                listed.enhancement, listed.enhancement_line = chosen.get("name"), chosen.sourceline
            elif chosen.get("type") == "upgrade":
                listed.options.append((chosen.get("name", ""), chosen.sourceline))
        return listed


def read_battlescribe(data: bytes, shown: str) -> ListedArmy:
    from ..data.importers.xmlfiles import parse_untrusted  # lxml is loaded only for a BattleScribe roster
    from ..systems.wh40k10.lists import ListedArmy

    root, refusal = parse_untrusted(data, shown)
    if root is None:
        raise LoadFailure([Finding("list-unreadable", refusal.message, location=refusal.location,
                                   suggestion="send the .ros/.rosz file as BattleScribe or New Recruit saved it")])
    if root.tag != "roster":
        raise _unreadable(shown, f"a BattleScribe roster's root is <roster>, not <{root.tag}>", root.sourceline)
    listed = ListedArmy(BATTLESCRIBE)
    _Selections(listed).read(root)
    return listed


__all__ = ["BATTLESCRIBE", "LIST_SUFFIXES", "is_list", "list_form", "read_bounded", "read_list",
           "read_list_data", "read_battlescribe"]
