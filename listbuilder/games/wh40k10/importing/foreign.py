"""40k lists in the forms other tools write, read and placed against the installed data: the
official app's text, New Recruit's text (its four layouts) and BattleScribe rosters. The bytes
come bounded and unzipped (rosters/lists.py); the XML is parsed as the BSData importer parses
catalogues (no DTD, no entities, no network). The readers of the text forms and the placing of
names are listtext.py and lists.py.

A roster is walked here with lxml rather than read with battlescribe.importing.roster_xml: that
reader's dict keeps no source lines, and every finding on a list says its line.
"""

from __future__ import annotations

import contextlib
import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ....core.findings import Finding, LoadFailure, Location
from ..catalog import GAME_ID, WEAPON_PROFILES, weapon_name
from ..lists import ImportedList, ListedArmy, ListedItem, ListedUnit, ListUnreadable, read_formation_note, to_roster
from ..listtext import APP, NEW_RECRUIT, read_app_text, read_new_recruit, text_form

if TYPE_CHECKING:
    from lxml import etree

    from ....listengine.catalog import Catalog
    from ..roster import Wh40kRoster

BATTLESCRIBE = "a BattleScribe roster"
ZIP_MAGIC = b"PK\x03\x04"  # a .rosz: BattleScribe's roster zipped
POINTS_TYPE = "pts"
GENERATED_BY = "listbuilder"  # a roster `export --format ros` wrote
CONFIGURATION = {"show/hide options", "game type"}  # army-wide settings of older data, with no category
CONFIGURATION_CATEGORY = "configuration"  # the data's category of army-wide settings ("Show Legends", "Detachment")
MAX_FIGURE = 10**9  # a cost, count or revision in a roster: an army is a few thousand points
DIGITS = re.compile(r"[0-9]{1,9}")  # a revision or count: ASCII digits only ('²'.isdigit() is True)


def list_form(data: bytes) -> str | None:
    """Which form of 40k list the bytes are, if any (a zip archive is taken for a .rosz)."""
    if data.startswith(ZIP_MAGIC) or data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
        return BATTLESCRIBE
    try:
        return text_form(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        return None


def _unreadable(shown: str, message: str, line: int | None = None, suggestion: str | None = None) -> LoadFailure:
    return LoadFailure([Finding("list-unreadable", message, location=Location(shown, line), suggestion=suggestion)])


def imported_list(data: bytes, form: str, shown: str, catalog: Catalog) -> ImportedList:
    """A list of `form` (rosters.lists.list_form; a .rosz already unzipped) placed against the
    installed 40k data. Raises LoadFailure when it cannot be read or placed at all."""
    try:
        if form in (APP, NEW_RECRUIT):
            listed = (read_app_text if form == APP else read_new_recruit)(data.decode("utf-8-sig"))
        else:
            listed = read_battlescribe(data, form, shown)
    except ListUnreadable as error:
        raise _unreadable(shown, str(error), error.line) from None
    wh40k = catalog.imported(GAME_ID)
    if wh40k is None:
        raise _unreadable(shown, "no Warhammer 40,000 data is installed",
                          suggestion="import your copy of the BSData wh40k-10e files: "
                                     "listbuilder data import bsdata PATH")
    imported = to_roster(listed, wh40k, shown, lambda roster: _priced(roster, catalog))
    if imported.roster is None:
        raise LoadFailure(imported.findings)
    return imported


def _priced(roster: Wh40kRoster, catalog: Catalog) -> dict[int, int]:
    """Each unit's points as the check prices them (the data's modifiers: an ally's surcharge); none
    where the check cannot run (a battle size the data lacks: its own finding says so)."""
    from ..rules import unknown_names, validate

    if unknown_names(roster, catalog):
        return {}
    return {checked.index: checked.points for checked in validate(roster, catalog).units}


@dataclass
class _Selections:
    """A BattleScribe roster's selections, walked once: the army's choices and its units."""

    listed: ListedArmy
    shown: str

    def figure(self, element: etree._Element, attribute: str, default: str, whole: bool = False) -> float:
        """A cost's value, a selection's number or a revision, refused with its line unless a finite
        figure of at most MAX_FIGURE (`whole`: written in ASCII digits)."""
        written = element.get(attribute, default)
        value = math.nan
        if DIGITS.fullmatch(written):
            value = int(written)
        elif not whole:
            with contextlib.suppress(ValueError):
                value = float(written)
        if not math.isfinite(value) or abs(value) > MAX_FIGURE:
            kind = "a whole number" if whole else "a number"
            raise _unreadable(self.shown, f"<{element.tag}> {attribute}=\"{written[:40]}\" is not {kind} "
                                          f"(at most {MAX_FIGURE:,})", element.sourceline,
                              suggestion="send the .ros/.rosz file as BattleScribe or New Recruit saved it")
        return value

    def read(self, root: etree._Element) -> None:
        listed = self.listed
        listed.name = root.get("name", "")
        listed.formations_stated = root.get("generatedBy") == GENERATED_BY  # ours states Leaders, transports (D19)
        total = root.find("costs/cost[@name='pts']")
        if total is not None:
            listed.total, listed.total_line = round(self.figure(total, "value", "0")), total.sourceline
        for force in root.iter("force"):  # forces within forces too
            if listed.faction is None:
                listed.faction, listed.faction_line = force.get("catalogueName"), force.sourceline
            if force.get("catalogueRevision"):
                revision = int(self.figure(force, "catalogueRevision", "", whole=True))
                listed.built_with.append((force.get("catalogueId", ""), revision, force.sourceline))
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
        elif _configuration(selection):
            choices = ", ".join(s.get("name", "") for s in selection.iterfind("selections/selection"))
            self.listed.configuration.append((f"{name}: {choices}" if choices else name, selection.sourceline))
        elif selection.get("type") in ("unit", "model"):
            self.listed.add(self.unit(selection))
        else:
            self.listed.unread(selection.sourceline, name, "not a unit, nor a choice of battle size, detachment "
                                                           "or other configuration")

    def unit(self, selection: etree._Element) -> ListedUnit:
        """A unit: its models, its stated points, its Warlord and Enhancement, and each weapon with
        how many models carry it; a model's weapon is counted by its selection's number, which
        BattleScribe and New Recruit write for all the models of the selection above it."""
        listed = ListedUnit(selection.get("name", ""), selection.sourceline,
                            entry_id=selection.get("entryId", "").rpartition("::")[2] or None,
                            called=selection.get("customName"))  # the player's own name for it
        for note in (selection.findtext("customNotes") or "").splitlines():  # as `export --format ros` writes them
            read_formation_note(listed, note.strip())
        models = [s for s in selection.iter("selection") if s.get("type") == "model"]
        listed.models = sum(int(self.figure(s, "number", "1", whole=True)) for s in models) or None
        listed.points = round(sum(self.figure(c, "value", "0") for c in selection.iter("cost")
                                  if c.get("name") == POINTS_TYPE))
        kinds: dict[etree._Element, int] = {}  # each model selection -> its item, which its weapons are listed under
        for chosen in selection.iter("selection"):
            name, upgrade = chosen.get("name", ""), chosen.get("type") == "upgrade"
            number = int(self.figure(chosen, "number", "1", whole=True))
            if chosen.get("type") == "model":
                kinds[chosen] = listed.add(ListedItem(name, number, chosen.sourceline, "model"))
            if upgrade and name.casefold() == "warlord":
                listed.warlord = True
            elif upgrade and chosen.get("group", "").casefold().startswith("enhancement"):
                listed.enhancement, listed.enhancement_line = name, chosen.sourceline
            elif weapons := _weapons(chosen):
                model = next((kinds[a] for a in [chosen, *chosen.iterancestors("selection")] if a in kinds), None)
                for weapon in weapons:
                    listed.add(ListedItem(weapon, number, chosen.sourceline, "weapon", under=model))
            elif upgrade and not any(_weapons(inner) for inner in chosen.iter("selection")):  # else its weapons count
                listed.options.append((name, chosen.sourceline, number))
        return listed


def _configuration(selection: etree._Element) -> bool:
    """An army-wide setting ("Show Legends", "Khorne Daemons are visible", "Rituals reference"):
    the data's Configuration is its primary category, or it is one of older data's."""
    primary = selection.find("categories/category[@primary='true']")
    return (primary is not None and primary.get("name", "").casefold() == CONFIGURATION_CATEGORY) \
        or selection.get("name", "").casefold() in CONFIGURATION


def _weapons(selection: etree._Element) -> list[str]:
    """The weapons a selection's own profiles describe, each once ('➤ Plasma gun - standard' and
    '- supercharge' are one plasma gun)."""
    return list(dict.fromkeys(weapon_name(p.get("name", "")) for p in selection.iterfind("profiles/profile")
                              if p.get("typeName", "").casefold() in WEAPON_PROFILES))


def read_battlescribe(data: bytes, form: str, shown: str) -> ListedArmy:
    from .xmlfiles import parse_untrusted  # lxml is loaded only for a BattleScribe roster

    root, refusal = parse_untrusted(data, shown)
    if root is None:
        assert refusal is not None
        raise LoadFailure([Finding("list-unreadable", refusal.message, location=refusal.location,
                                   suggestion="send the .ros/.rosz file as BattleScribe or New Recruit saved it")])
    if root.tag != "roster":
        raise _unreadable(shown, f"a BattleScribe roster's root is <roster>, not <{root.tag}>", root.sourceline)
    listed = ListedArmy(form)
    _Selections(listed, shown).read(root)
    return listed

