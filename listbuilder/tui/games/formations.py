"""The editor: points and caps on top, formations on the left, the selected formation's settings
on the right, findings below. Widgets get the checked roster (attributes down) and report what
the player asked for (messages up); every edit goes to the app as a new Roster."""

from __future__ import annotations

from functools import partial
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, OptionList

from ...core.findings import Finding
from ...core.names import name_key
from ...games import validate
from ...listengine import edits
from ...listengine.catalog import Catalog
from ...listengine.datasheet import Datasheet
from ...listengine.engine import BuiltFormation, RosterResult
from ...listengine.knobs import (
    Found,
    Knob,
    Offer,
    bought_inside,
    judged,
    judged_choices,
    knobs_for,
    offers,
    refusal,
    why,
)
from ...listengine.roster import Roster
from ..screens.datasheet import DatasheetScreen
from ..screens.dialogs import RosterDetailsScreen, TextScreen
from ..screens.editing import Command, EditorActions, file_bindings, history_bindings
from ..screens.pick import PickItem, PickScreen
from ..widgets.datasheet import stats
from ..widgets.roster_view import FindingsList, FormationList, PointsStatus, formation_problems
from ..widgets.title_bar import TitleBar
from .formation_editor import FormationEditor
from .knob_row import KnobRow

EMPTY = "The roster is empty. Press [b]a[/b] to browse the army list and add a formation."


class MainScreen(EditorActions, Screen[None]):
    palette_help = "Every action, formation and datasheet, by name"
    BINDINGS = [
        Binding("a", "add", "Add", id="add", tooltip="Browse the army list's formations and add one"),
        Binding("d", "duplicate", "Duplicate", id="duplicate", show=False,
                tooltip="Add a copy of the selected formation"),
        Binding("b", "buy", "Buy", id="buy", tooltip="Things bought for the whole army (a Wraithgate, daemons)"),
        Binding("delete,x", "remove", "Remove", id="remove", key_display="del",
                tooltip="Remove the selected formation"),
        Binding("shift+up,left_square_bracket", "move(-1)", "Move up", id="move-up", show=False,
                tooltip="Move the selected formation up the roster"),
        Binding("shift+down,right_square_bracket", "move(1)", "Move down", id="move-down", show=False,
                tooltip="Move the selected formation down the roster"),
        Binding("l", "label", "Label", id="label", show=False, tooltip="Give the selected formation your own name"),
        Binding("v", "datasheets", "Sheets", id="datasheets",
                tooltip="Full datasheets of the selected formation's units and of those it may add"),
        Binding("escape", "roster", "Roster", id="roster", show=False, tooltip="Back to the list of formations"),
        Binding("f", "findings", "Findings", id="findings", show=False,
                tooltip="Go to the findings; Enter on one jumps to the entry it is about"),
        Binding("r", "details", "Name & points", id="details", show=False,
                tooltip="Change the roster's name and its points limit"),
        *history_bindings(""),
        *file_bindings(""),
        Binding("ctrl+d", "duplicate_roster", "Duplicate roster", id="duplicate-roster", show=False,
                tooltip="Go on with a copy of the roster under a new name (the original stays as saved)"),
        Binding("c", "copy_text", "Copy as text", id="copy-text", show=False,
                tooltip="Copy the list as text to the clipboard, as players post it "
                        "(listbuilder export --format text)"),
        Binding("ctrl+e", "print", "Print PDF", id="print", show=False,
                tooltip="Print the roster with its datasheets to a PDF file"),
        Binding("f1,question_mark", "help", "Help", id="help", tooltip="Show every key"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.roster: Roster | None = None  # the latest edit: what the next edit builds on
        self.result: RosterResult | None = None  # the latest checked roster: what is shown
        self.selected: int | None = None
        self.key_state: tuple[bool, bool, bool] | None = None

    @staticmethod
    def entries(roster: Roster) -> list[Any]:
        return roster.formations

    @staticmethod
    def army_name(roster: Roster, catalog: Catalog) -> str:
        army = catalog.find_list(roster.game, roster.army)
        return army.name if army else roster.army

    def compose(self) -> ComposeResult:
        yield TitleBar(self.title_shown, id="title")
        yield PointsStatus(id="status")
        with Horizontal(id="body"):
            yield FormationList(id="formations")
            yield FormationEditor(self.unit_stats, id="editor")
        yield FindingsList(id="findings")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        if self.result is not None:
            self.show(self.result)
        self.query_one(FormationList).focus()

    # -- showing ---------------------------------------------------------------------------

    def show(self, result: RosterResult) -> None:
        """Show a checked roster everywhere (called by the app once the check is done)."""
        self.result = result
        count = len(result.roster.formations)
        if self.selected is None or self.selected >= count:
            self.selected = count - 1 if count else None
        self.query_one(PointsStatus).show(result)
        self.query_one(FormationList).show(result, self.selected)
        self.query_one(FindingsList).show(result)
        self._show_selected()
        self._refresh_keys()

    def _refresh_keys(self) -> None:
        """Redraw the footer's keys when what they can do changed (not on every edit: the
        footer rebuilds its keys each time)."""
        history = self.editor.history
        state = (self.selected is None, history.can_undo, history.can_redo)
        if state != self.key_state:
            self.key_state = state
            self.refresh_bindings()

    def built(self, index: int | None) -> BuiltFormation | None:
        if self.result is None or index is None:
            return None
        return next((f for f in self.result.formations if f.index == index), None)

    def _show_selected(self) -> None:
        assert self.result is not None
        index, roster = self.selected, self.result.roster
        editor = self.query_one(FormationEditor)
        if index is None:
            editor.show(None, [], [], Content.from_markup(EMPTY))
            return
        built = self.built(index)
        findings = formation_problems(self.result.findings, index)
        reason = next((f.message + (f" ({f.suggestion})" if f.suggestion else "")
                       for f in findings if f.path[2:3] == ("type",)), "")
        knobs = [] if built is None else judged(knobs_for(built, roster.formations[index]), self.result, index,
                                                 self.editor.catalog, self.editor.formation_cache)
        editor.show(built, knobs, findings, Content.assemble(("Unknown formation. ", "bold $error"), reason,
                                                             "\nPress del to remove it."))

    @on(OptionList.OptionHighlighted, "#formations")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_index != self.selected:
            self.selected = event.option_index
            self._show_selected()
            self._refresh_keys()

    @on(OptionList.OptionSelected, "#formations")
    def _open_formation(self) -> None:
        self.query_one(FormationEditor).focus_first()

    def select_formation(self, index: int, focus: tuple[str, ...] | None = None) -> None:
        """Select formation `index`; with `focus`, put the cursor on the setting at that key."""
        self.selected = index
        self.query_one(FormationList).highlighted = index
        self._show_selected()
        editor = self.query_one(FormationEditor)
        if focus is None or not editor.focus_knob(focus):
            self.query_one(FormationList).focus()

    # -- editing ---------------------------------------------------------------------------

    def commit(self, roster: Roster, what: str, focus: int | None, run: object = None) -> None:
        self.editor.commit(roster, what, focus, run)

    def _current_knob(self, row: KnobRow) -> tuple[int, Knob] | None:
        """The knob behind `row`, read afresh from the latest edit (the row may show an older check)."""
        index = self.selected
        assert self.roster is not None
        built = self.built(index)
        if index is None or built is None or index >= len(self.roster.formations):
            return None
        entry = self.roster.formations[index]
        if not built.definition.answers_to(entry.type):
            return None  # the roster changed shape and is still being checked
        knob = next((k for k in knobs_for(built, entry) if k.key == row.key), None)
        return (index, knob) if knob else None

    @on(KnobRow.Turned)
    def _turn(self, event: KnobRow.Turned) -> None:
        found = self._current_knob(event.row)
        if found is None:
            return
        index, knob = found
        assert self.roster is not None
        entry = self.roster.formations[index]
        if event.action == "choose" and knob.kind == "choice":
            self._choose(index, knob)
            return
        if knob.reason and event.action != "down" and knob.value in ("0", "no"):
            self.notify(f"{knob.title}: {knob.reason}", title="Not available", severity="warning", markup=False)
            return
        if event.action == "choose":
            changed = knob.toggle(entry)
        else:
            changed = knob.step(entry, 1 if event.action == "up" else -1)
        if changed is None:
            self.app.bell()
            return
        if event.action == "up" or knob.value in ("0", "no"):  # takes more (what is taken away is never refused)
            blocked = refusal(self._latest_checked(), index, changed, self.editor.catalog, self.editor.formation_cache)
            if blocked is not None:
                self.notify(why(blocked), title="Not allowed", severity="warning", markup=False)
                return
        self.commit(edits.replace_formation(self.roster, index, changed), f"{knob.title} of #{index + 1} {entry.type}",
                    index, run=(index, knob.key))

    def _latest_checked(self) -> RosterResult:
        """The check of the latest edit: the one shown, or (while a worker still checks it) made now."""
        assert self.result is not None and self.roster is not None
        if self.result.roster is self.roster:
            return self.result
        return validate(self.roster, self.editor.catalog, dict(self.editor.formation_cache))

    def _choose(self, index: int, knob: Knob) -> None:
        choices = judged_choices(knob, self._latest_checked(), index, self.editor.catalog,
                                 self.editor.formation_cache)
        current = next((c.value for c in choices if c.label == knob.value), None)
        items = [PickItem(c.value, Content.assemble((c.label, "bold"), (f"  {c.cost}", "$accent"),
                                                    (f"  ✖ {c.reason}" if c.reason else "", "$text-muted"),
                                                    (f"\n  {c.summary}" if c.summary else "", "$text-muted")),
                          c.label, c.summary, disabled=bool(c.reason)) for c in choices]

        def picked(item: PickItem | None) -> None:
            if item is None or self.roster is None or index >= len(self.roster.formations):
                return
            entry = self.roster.formations[index]
            changed = knob.pick(entry, item.value)
            if changed is not None:
                self.commit(edits.replace_formation(self.roster, index, changed),
                            f"{knob.title} of #{index + 1} {entry.type}", index)

        units = {c.value: c.unit for c in knob.choices}
        self.app.push_screen(PickScreen(knob.title, items, current, preview=lambda value: self.unit_stats(
            [units[value]] if units.get(value) else [])), picked)

    def add_formation(self, name: str) -> None:
        assert self.roster is not None
        self.commit(edits.add_formation(self.roster, name), f"add {name}", len(self.roster.formations))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        needs_selection = ("duplicate", "remove", "move", "label")
        if action in needs_selection and self.selected is None:
            return None
        if action == "buy":
            return bool(self.editor.view.army.purchases)  # hidden when the list buys nothing army-wide
        if action == "undo":
            return True if self.editor.history.can_undo else None
        if action == "redo":
            return True if self.editor.history.can_redo else None
        return True

    def action_add(self) -> None:
        """Browse what can be added: formations, and the upgrades, characters and units bought in
        them (choosing one of those goes to the formation of the roster that may take it)."""
        assert self.roster is not None
        view = self.editor.view
        items = []
        for offer in offers(view):
            heading = Content.assemble((offer.name, "bold"), (f"  {offer.points}", "$accent"),
                                       (f"  [{offer.list_name}]" if offer.is_ally else "", "$text-muted"),
                                       (f"  {offer.category}" if offer.category else "", "$text-muted"),
                                       (f"  0-{offer.max_per_army} per army" if offer.max_per_army is not None else "",
                                        "$text-muted"))
            details = offer.contents + (f" · upgrades: {', '.join(offer.upgrades)}" if offer.upgrades else "")
            details += f" · {offer.transport}" if offer.transport else ""
            items.append(PickItem(offer, Content.assemble(heading, "\n  ", (details, "$text-muted")),
                                  offer.name, f"{offer.list_name} {offer.category or ''} {offer.contents}"))
        for found in bought_inside(view):
            where = ", ".join(found.where)
            heading = Content.assemble((found.name, "bold"), (f"  {found.price}", "$accent"),
                                       (f"  {found.kind}", "$text-muted"))
            bought = (f"the {found.upgrade} upgrade of " if found.kind != "upgrade" else "an upgrade of ") + where
            items.append(PickItem(found, Content.assemble(heading, "\n  ", (bought, "$text-muted")), found.name,
                                  f"{found.kind} {found.also}"))

        def picked(item: PickItem | None) -> None:
            if item is None:
                return
            if isinstance(item.value, Offer):
                self.add_formation(item.value.name)
            else:
                self.go_to_upgrade(item.value)

        def preview(value: Offer | Found) -> Content | None:
            if isinstance(value, Offer):
                return self.unit_stats(value.units, f"{value.name}: {value.points}")
            upgrade = next(u for v in view.lists() for u in v.army.upgrades if u.name == value.upgrade)
            units = [o.unit for o in upgrade.options if value.kind == "upgrade" or o.label == value.name]
            return self.unit_stats(units, f"{value.name}: {value.price} ({value.kind})")

        self.app.push_screen(PickScreen(f"Add · {view.army.name}", items, tall=True, preview=preview,
                                        hint="Type a formation, upgrade, character or unit · Enter add · Esc cancel"),
                             picked)

    def unit_stats(self, units: list[str], price: str = "") -> Content | None:
        """The datasheets of `units` in a few lines each, under a line of price."""
        view = self.editor.view
        sheets = unique([sheet for name in units for v in view.lists() if (sheet := v.unit(name))])
        lines = ([Content.styled(price, "bold $accent")] if price else []) + [stats(sheet) for sheet in sheets]
        return Content("\n").join(lines) if lines else None

    def go_to_upgrade(self, found: Found) -> None:
        """Put the cursor on the setting of `found`'s upgrade in a formation that may take it (the
        selected one first), or say which formations to add."""
        assert self.result is not None
        order = sorted(self.result.formations, key=lambda f: f.index != self.selected)
        taker = next((f for f in order if any(name_key(u.name) == name_key(found.upgrade) for u in f.offers)), None)
        if taker is not None:
            self.select_formation(taker.index, ("upgrades", found.upgrade))
        else:
            self.notify(f"{found.name} is bought with the {found.upgrade} upgrade of {', '.join(found.where)}: "
                        f"add one of those first.", title="Not in the roster yet", markup=False)

    def action_buy(self) -> None:
        assert self.roster is not None
        roster = self.roster
        items = []
        for purchase in self.editor.view.army.purchases:
            bought = next((n for key, n in roster.purchases.items() if name_key(key) == name_key(purchase.name)), 0)
            limit = f", at most {purchase.max}" if purchase.max is not None else ""
            about = Content.assemble((purchase.summary, "$text-muted"))
            if purchase.max is None or bought < purchase.max:
                items.append(PickItem((purchase.name, bought + 1), Content.assemble(
                    (f"Buy a {purchase.name}", "bold"), (f"  +{purchase.cost} pts", "$accent"),
                    (f"  ({bought} bought{limit})", "$text-muted"), "\n  ", about), purchase.name, purchase.summary))
            if bought:
                items.append(PickItem((purchase.name, bought - 1), Content.assemble(
                    (f"Remove a {purchase.name}", "bold"), (f"  -{purchase.cost} pts", "$accent"),
                    (f"  ({bought} bought)", "$text-muted")), purchase.name, purchase.summary))

        def picked(item: PickItem | None) -> None:
            if item is not None:
                name, number = item.value
                written = next((k for k in roster.purchases if name_key(k) == name_key(name)), name)
                self.commit(edits.set_purchase(roster, written, number), f"{name}: {number}", self.selected)

        self.app.push_screen(PickScreen(f"Bought for the army · {self.editor.view.army.name}", items,
                                        hint="Type to filter · Enter choose · Esc cancel"), picked)

    def action_duplicate(self) -> None:
        assert self.roster is not None and self.selected is not None
        i = self.selected
        self.commit(edits.duplicate_formation(self.roster, i), f"duplicate #{i + 1} {self.roster.formations[i].type}",
                    i + 1)

    def action_remove(self) -> None:
        assert self.roster is not None and self.selected is not None
        i = self.selected
        roster = edits.remove_formation(self.roster, i)
        self.commit(roster, f"remove #{i + 1} {self.roster.formations[i].type}",
                    min(i, len(roster.formations) - 1) if roster.formations else None)

    def action_move(self, offset: int) -> None:
        assert self.roster is not None and self.selected is not None
        i = self.selected
        target = max(0, min(len(self.roster.formations) - 1, i + offset))
        self.commit(edits.move_formation(self.roster, i, offset), f"move #{i + 1} {self.roster.formations[i].type}",
                    target)

    def action_label(self) -> None:
        assert self.roster is not None and self.selected is not None
        i = self.selected
        entry = self.roster.formations[i]

        def labelled(label: str | None) -> None:
            if label is not None and self.roster is not None:
                self.commit(edits.relabel_formation(self.roster, i, label), f"label #{i + 1} {entry.type}", i)

        self.app.push_screen(TextScreen(f"Label for {entry.type}", entry.label or "",
                                        "e.g. Sergeant Hale's detachment (empty: no label)"), labelled)

    def action_details(self) -> None:
        assert self.roster is not None
        game = self.editor.catalog.games[self.roster.game]

        def changed(details: tuple[str, int] | None) -> None:
            if details is not None and self.roster is not None:
                self.commit(edits.retitle(self.roster, *details), "roster name and points", self.selected)

        self.app.push_screen(RosterDetailsScreen(self.roster.name, self.roster.points,
                                                 (game.points.min, game.points.max)), changed)

    def action_roster(self) -> None:
        self.query_one(FormationList).focus()

    def action_findings(self) -> None:
        self.query_one(FindingsList).focus()

    @on(FindingsList.Chosen)
    def _jump(self, event: FindingsList.Chosen) -> None:
        finding: Finding = event.finding
        path = finding.path
        if len(path) >= 2 and path[0] == "formations" and isinstance(path[1], int):
            self.select_formation(path[1], tuple(str(p) for p in path[2:4]) or None)
        elif path[:1] == ("points",):
            self.action_details()
        else:
            self.query_one(FormationList).focus()

    def action_datasheets(self, unit: str | None = None) -> None:
        view = self.editor.view
        built = self.built(self.selected)
        sections: list[tuple[str, list[Datasheet]]] = []
        if built is not None and unit is None:
            assert self.result is not None
            fielded = unique([*(g.sheet for g in built.units), *(c.sheet for c in built.characters)])
            knobs = knobs_for(built, self.result.roster.formations[built.index])
            offered = [sheet for knob in knobs for name in knob.adds for v in view.lists() if (sheet := v.unit(name))]
            sections = [(f"#{built.index + 1} {built.name}", fielded),
                        ("It may add", [s for s in unique(offered) if s.name not in {f.name for f in fielded}])]
        else:
            sections = [(v.army.name, unique(list(v.units.values()))) for v in view.lists()]
        selected = unit or (sections[0][1][0].name if sections and sections[0][1] else None)
        self.app.push_screen(DatasheetScreen(self.editor.catalog, view.army.game, sections, selected,
                                             self.editor.roster_title))

    def help_sections(self) -> list[tuple[str, list[Binding]]]:
        return [
            ("Roster", self.BINDINGS),
            ("Settings", [*KnobRow.BINDINGS, *FormationEditor.BINDINGS]),
            ("Lists", [Binding("up,down", "", "Move", tooltip="Move in a list"),
                       Binding("enter", "", "Choose", tooltip="Edit the formation, add the formation "
                               "or jump to the finding under the cursor"),
                       Binding("tab,shift+tab", "", "Next / previous pane")]),
        ]

    def palette_picks(self) -> list[Command]:
        view = self.editor.view
        found: list[Command] = [(f"Add {offer.name}", f"{offer.points}: {offer.contents}",
                                 partial(self.add_formation, offer.name)) for offer in offers(view)]
        for v in view.lists():
            for sheet in unique(list(v.units.values())):
                found.append((f"Datasheet: {sheet.name}", v.army.name, partial(self.action_datasheets, sheet.name)))
        for i, entry in enumerate(self.editor.history.current.formations):
            found.append((f"Go to #{i + 1} {entry.type}", entry.label or "", partial(self.select_formation, i)))
        return found


def unique(sheets: list[Datasheet]) -> list[Datasheet]:
    """Each datasheet once, in order (a view finds a unit under its id and its name)."""
    seen: dict[str, Datasheet] = {}
    for sheet in sheets:
        seen.setdefault(sheet.name, sheet)
    return list(seen.values())
