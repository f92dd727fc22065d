"""The editor on an Epic Remastered roster: detachments and their unit lines on the left, the
selected detachment's command and derived values, or the selected unit's derived data sheet, on the
right, findings below. The app around it (undo, save, open, print) is the editor's own (app.py)."""

from __future__ import annotations

from functools import partial
from typing import Any

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Label, OptionList, Static
from textual.widgets.option_list import Option

from ...core.names import name_key
from ...core.system import SheetSummary
from ...games import summarise
from ...games.epic_remastered.edits import Row, rows_of, units_listed, with_detachment, with_unit
from ...games.epic_remastered.models import DetachmentPick, ErRoster, TransportPick, UnitPick
from ...games.epic_remastered.rules import CheckedDetachment, ErResult, data_of
from ...games.epic_remastered.summary import detachment_lines, sheet, unit_text
from ..screens.dialogs import TextScreen
from ..screens.editing import Command, EditorActions, file_bindings, history_bindings
from ..screens.pick import PickItem, PickScreen
from ..widgets.roster_view import FindingsList
from ..widgets.title_bar import TitleBar

EMPTY = "No detachments yet. Press a to add one from the army list."


def sheet_table(sheet: SheetSummary) -> Table:
    """A data sheet in the terminal: each characteristics row as a line that wraps (a derivation
    step lists only what it changed), other tables as tables; □ is a value to fill in."""
    table = Table.grid(padding=(0, 1))
    table.add_row(Text.assemble((sheet.name, "bold"), "  ", (sheet.subtitle, "dim")))
    for number, (headings, rows) in enumerate(sheet.tables):
        if number == 0:
            for name, *values in rows:
                step = name.startswith("+ ")
                shown = [f"{h} {v or '□'}" for h, v in zip(headings[1:], values) if v or not step]
                table.add_row(Text.assemble((name, "bold" if not step else ""), ": ", " · ".join(shown)))
            continue
        inner = Table(*headings, box=None, padding=(0, 1), header_style="bold")
        for row in rows:
            inner.add_row(*(Text(cell or "□") for cell in row))
        table.add_row(inner)
    for label, text in sheet.lines:
        table.add_row(Text.assemble((f"{label}: " if label else "", "bold"), text))
    return table


class SheetsScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,v,q", "dismiss", "Close", id="sheets.close")]

    def __init__(self, title: str, sheets: list[SheetSummary]) -> None:
        super().__init__()
        self.title_text = title
        self.sheets = sheets

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog picker"):
            yield Label(Content(f"{self.title_text} (Esc to close)"), classes="dialog-title")
            for shown in self.sheets:
                yield Static(sheet_table(shown))


class ErScreen(EditorActions, Screen[None]):
    BINDINGS = [
        Binding("a", "add", "Detachment", id="er.add", tooltip="Add a detachment from the army list"),
        Binding("u", "unit", "Unit", id="er.unit", tooltip="Add a unit of the selected detachment's list"),
        Binding("plus,equals_sign", "count(1)", "More", id="er.more", key_display="+",
                tooltip="One more of the selected unit"),
        Binding("minus", "count(-1)", "Fewer", id="er.fewer", key_display="-",
                tooltip="One fewer of the selected unit"),
        Binding("t", "transport", "Transport", id="er.transport",
                tooltip="Field the selected unit with transports (as many as it needs)"),
        Binding("right_square_bracket", "transports(1)", "More transports", id="er.more-transports", show=False,
                tooltip="One more transport for the selected unit"),
        Binding("left_square_bracket", "transports(-1)", "Fewer transports", id="er.fewer-transports", show=False,
                tooltip="One fewer transport for the selected unit (at least one)"),
        Binding("g", "upgrade", "Upgrade", id="er.upgrade", show=False, tooltip="Take or drop an upgrade"),
        Binding("h", "hq", "HQ", id="er.hq", tooltip="Choose the HQ among equally senior units"),
        Binding("l", "label", "Label", id="er.label", show=False, tooltip="Name the selected detachment"),
        Binding("r", "rename", "Name", id="er.rename", show=False, tooltip="Name the roster"),
        Binding("delete,x", "remove", "Remove", id="er.remove", key_display="del",
                tooltip="Remove the selected unit or detachment"),
        Binding("v", "sheets", "Sheets", id="er.sheets", tooltip="Derived data sheets of the selection"),
        Binding("f", "findings", "Findings", id="er.findings", show=False, tooltip="Go to the findings"),
        *history_bindings("er."),
        *file_bindings("er."),
        Binding("ctrl+e", "print", "Print PDF", id="er.print", show=False, tooltip="Print the roster to a PDF"),
        Binding("c", "copy_text", "Copy as text", id="er.copy-text", show=False,
                tooltip="Copy the list as text (says so where the game has no list text yet)"),
        Binding("f1,question_mark", "help", "Help", id="er.help", tooltip="Show every key"),
    ]
    palette_help = "Every action, detachment to add and detachment to go to, by name"

    def __init__(self) -> None:
        super().__init__()
        self.roster: ErRoster | None = None
        self.result: ErResult | None = None
        self.selected: int | None = None  # a line of the list: rows_of(roster)[selected]
        self.details: Table | Text = Text(EMPTY)  # what the right-hand panel shows

    @staticmethod
    def entries(roster: ErRoster) -> list[Row]:
        return rows_of(roster)

    @staticmethod
    def army_name(roster: ErRoster, catalog: Any) -> str:
        army = data_of(catalog).find(roster.army)
        return army.army.name if army else roster.army

    @property
    def row(self) -> Row | None:
        rows = rows_of(self.roster) if self.roster else []
        return rows[self.selected] if self.selected is not None and self.selected < len(rows) else None

    def compose(self) -> ComposeResult:
        yield TitleBar(self.title_shown, id="title")
        yield Static(id="status")
        with Horizontal(id="body"):
            yield OptionList(id="formations")
            with VerticalScroll(id="editor"):
                yield Static(id="details")
        yield FindingsList(id="findings")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one("#formations", OptionList).border_title = "Detachments"
        if self.result is not None:
            self.show(self.result)
        self.query_one("#formations", OptionList).focus()

    # -- showing ---------------------------------------------------------------------------

    def show(self, result: ErResult) -> None:
        self.result = result
        rows = rows_of(result.roster)
        if self.selected is None or self.selected >= len(rows):
            self.selected = len(rows) - 1 if rows else None
        summary = summarise(result)
        errors = sum(f.severity == "error" for f in summary.findings)
        verdict = ("[b $success]legal[/]" if summary.valid else f"[b $error]{errors} error{'s' * (errors != 1)}[/]")
        self.query_one("#status", Static).update(Content.from_markup(
            f"{verdict} · " + " · ".join(summary.army_lines).replace("[", "\\[")))
        by_index = {d.index: d for d in result.detachments}
        options = []
        for d, j in rows:
            checked = by_index[d]
            bad = any(f.path[:2] == ("detachments", d) and (j is None or f.path[2:4] == ("units", j))
                      for f in result.findings if f.severity == "error")
            mark = "✖ " if bad else "  "
            text = (f"{mark}{checked.title}" if j is None
                    else f"{mark}   {unit_text(checked.units[j]).partition(': ')[2] or unit_text(checked.units[j])}")
            options.append(Option(Text(text, style="bold" if j is None else "")))
        listing = self.query_one("#formations", OptionList)
        listing.set_options(options)
        if self.selected is not None:
            listing.highlighted = self.selected
        self.query_one(FindingsList).show(result)
        self._details()
        self.refresh_bindings()

    def _checked(self) -> CheckedDetachment | None:
        if self.result is None or self.row is None:
            return None
        return next((d for d in self.result.detachments if d.index == self.row[0]), None)

    def _details(self) -> None:
        checked = self._checked()
        if checked is None:
            self.details = Text(EMPTY)
        elif self.row[1] is None:
            self.details = Text("\n".join([checked.title, *detachment_lines(checked)]))
        else:
            unit = checked.units[self.row[1]]
            self.details = sheet_table(sheet(unit.sheet)) if unit.sheet else Text(f"no data sheet for {unit.pick.unit}")
        self.query_one("#details", Static).update(self.details)

    @on(OptionList.OptionHighlighted, "#formations")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if self.roster and event.option_index < len(rows_of(self.roster)):
            self.selected = event.option_index
            self._details()
            self.refresh_bindings()

    @on(FindingsList.Chosen)
    def _jump(self, event: FindingsList.Chosen) -> None:
        """To the unit line or detachment a finding is about."""
        path, listing = event.finding.path, self.query_one("#formations", OptionList)
        rows = rows_of(self.roster) if self.roster else []
        if len(path) >= 2 and path[0] == "detachments":
            unit = path[3] if len(path) >= 4 and path[2] == "units" else None
            row = (path[1], unit) if (path[1], unit) in rows else (path[1], None)
            if row in rows:
                listing.highlighted = rows.index(row)
        listing.focus()

    def action_findings(self) -> None:
        self.query_one(FindingsList).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        unit_actions = {"count", "transport", "transports", "upgrade"}
        if action in unit_actions:
            return self.row is not None and self.row[1] is not None
        if action in {"unit", "hq", "label", "remove", "sheets"}:
            return self.row is not None
        if action == "undo":
            return True if self.editor.history.can_undo else None
        if action == "redo":
            return True if self.editor.history.can_redo else None
        return True

    # -- edits -----------------------------------------------------------------------------

    def commit(self, roster: ErRoster, what: str, focus: Row | None) -> None:
        """Hand the edit to the app, the line of `focus` (detachment, unit line) selected after it."""
        rows = rows_of(roster)
        self.editor.commit(roster, what, rows.index(focus) if focus in rows else None)

    def _entries(self):
        army = data_of(self.editor.catalog).find(self.roster.army)
        checked = self._checked()
        return (checked.detachment.entries if checked and checked.detachment else []), army

    def action_add(self) -> None:
        army = data_of(self.editor.catalog).find(self.roster.army)
        items = [PickItem(d.name, Content(d.name), d.name, units_listed(d)) for d in army.army.detachments]

        def picked(item: PickItem | None) -> None:
            if item is not None:
                self.add_detachment(item.value)

        self.app.push_screen(PickScreen(f"Add a detachment · {army.army.name}", items), picked)

    def add_detachment(self, name: str) -> None:
        """Add a detachment of list `name` at the end and select it."""
        roster = self.roster.model_copy(update={"detachments": [*self.roster.detachments, DetachmentPick(type=name)]})
        self.commit(roster, f"add {name}", (len(roster.detachments) - 1, None))

    def select_detachment(self, index: int) -> None:
        listing = self.query_one("#formations", OptionList)
        listing.highlighted = rows_of(self.roster).index((index, None))
        listing.focus()

    def palette_picks(self) -> list[Command]:
        army = data_of(self.editor.catalog).find(self.roster.army)
        found: list[Command] = [(f"Add {d.name}", units_listed(d), partial(self.add_detachment, d.name))
                                for d in army.army.detachments]
        found += [(f"Go to #{i + 1} {pick.type}", pick.label or "", partial(self.select_detachment, i))
                  for i, pick in enumerate(self.roster.detachments)]
        return found

    def action_unit(self) -> None:
        entries, army = self._entries()
        d = self.row[0]
        items = []
        for group, entry in entries:
            sheet = army.book.derived(entry.unit)
            values = " ".join(v for v in sheet.profile.printed().values() if v) if sheet else ""
            items.append(PickItem(entry.unit, Content(f"{group}: {entry.unit}  {values}"), entry.unit, group))

        def picked(item: PickItem | None) -> None:
            if item is not None:
                pick = self.roster.detachments[d]
                units = [*pick.units, UnitPick(unit=item.value)]
                roster = with_detachment(self.roster, d, pick.model_copy(update={"units": units}))
                self.commit(roster, f"add {item.value}", (d, len(units) - 1))

        self.app.push_screen(PickScreen(f"Add a unit · {self.roster.detachments[d].type}", items), picked)

    def _unit(self) -> UnitPick:
        d, j = self.row
        return self.roster.detachments[d].units[j]

    def action_count(self, step: int) -> None:
        unit = self._unit()
        if unit.count + step < 1:
            self.app.bell()
            return
        self.commit(with_unit(self.roster, *self.row, unit.model_copy(update={"count": unit.count + step})),
                    f"{unit.unit} x {unit.count + step}", self.row)

    def action_transports(self, step: int) -> None:
        unit = self._unit()
        if unit.transport is None or unit.transport.count + step < 1:
            self.app.bell()
            return
        ride = unit.transport.model_copy(update={"count": unit.transport.count + step})
        self.commit(with_unit(self.roster, *self.row, unit.model_copy(update={"transport": ride})),
                    f"{ride.count} x {ride.unit}", self.row)

    def action_transport(self) -> None:
        entries, army = self._entries()
        unit = self._unit()
        entry = next((e for _, e in entries if name_key(e.unit) == name_key(unit.unit)), None)
        offered = entry.transports if entry else []
        if not offered:
            self.notify(f"{unit.unit} rides no transport in this detachment list", markup=False)
            return
        items = [PickItem(None, Content("on foot"), "on foot")]
        for name in offered:
            carries = army.book.derived(name).carries
            capacity = carries[1] if carries else None
            need = -(-unit.count // capacity) if capacity else 1
            items.append(PickItem(TransportPick(unit=name, count=need), Content(f"{need} x {name}"), name))

        def picked(item: PickItem | None) -> None:
            if item is not None:
                self.commit(with_unit(self.roster, *self.row, unit.model_copy(update={"transport": item.value})),
                            f"transport for {unit.unit}", self.row)

        self.app.push_screen(PickScreen(f"Transport for {unit.unit}", items), picked)

    def action_upgrade(self) -> None:
        entries, _ = self._entries()
        unit = self._unit()
        entry = next((e for _, e in entries if name_key(e.unit) == name_key(unit.unit)), None)
        if entry is None or not entry.upgrades:
            self.notify(f"{unit.unit} has no upgrades in this detachment list", markup=False)
            return
        taken = {name_key(u) for u in unit.upgrades}
        items = [PickItem(u.name, Content(f"{'✔' if name_key(u.name) in taken else ' '} {u.name}: "
                                          f"{', '.join(u.abilities)}"), u.name) for u in entry.upgrades]

        def picked(item: PickItem | None) -> None:
            if item is None:
                return
            upgrades = ([u for u in unit.upgrades if name_key(u) != name_key(item.value)]
                        if name_key(item.value) in taken else [*unit.upgrades, item.value])
            self.commit(with_unit(self.roster, *self.row, unit.model_copy(update={"upgrades": upgrades})),
                        f"upgrades of {unit.unit}", self.row)

        self.app.push_screen(PickScreen(f"Upgrades of {unit.unit} (Enter takes or drops)", items), picked)

    def action_hq(self) -> None:
        checked = self._checked()
        choices = list(dict.fromkeys([*checked.derived.get("hq_choices", []),
                                      *([checked.derived["hq"]] if checked.derived.get("hq") else [])]))
        if len(choices) < 2 and not checked.pick.hq:
            self.notify("The HQ is the most senior unit present; there is no choice to make", markup=False)
            return
        items = [PickItem(None, Content("the most senior unit (no choice written)"), "none")]
        items += [PickItem(c, Content(c), c) for c in choices]

        def picked(item: PickItem | None) -> None:
            if item is not None:
                pick = checked.pick.model_copy(update={"hq": item.value})
                self.commit(with_detachment(self.roster, checked.index, pick), f"HQ {item.value}",
                            (checked.index, None))

        self.app.push_screen(PickScreen(f"HQ of {checked.title}", items, checked.pick.hq), picked)

    def action_label(self) -> None:
        d = self.row[0]
        pick = self.roster.detachments[d]

        def labelled(label: str | None) -> None:
            if label is not None:
                self.commit(with_detachment(self.roster, d, pick.model_copy(update={"label": label or None})),
                            f"label {label}", (d, None))

        self.app.push_screen(TextScreen(f"Label for {pick.type}", pick.label or "", "empty: no label"), labelled)

    def action_rename(self) -> None:
        def named(name: str | None) -> None:
            if name is not None:
                self.commit(self.roster.model_copy(update={"name": name}), f"name {name}", self.row)

        self.app.push_screen(TextScreen("Name of the roster", self.roster.name), named)

    def action_remove(self) -> None:
        d, j = self.row
        if j is None:
            self.commit(with_detachment(self.roster, d, None), f"remove {self.roster.detachments[d].type}",
                        (d - 1, None) if d else None)
        else:
            self.commit(with_unit(self.roster, d, j, None), f"remove {self._unit().unit}", (d, j - 1 if j else None))

    def action_sheets(self) -> None:
        checked = self._checked()
        sheets = [sheet(s) for u in checked.units for s in (u.sheet, u.transport) if s is not None]
        sheets = list({s.name: s for s in sheets}.values())
        if self.row[1] is not None and checked.units[self.row[1]].sheet is not None:
            chosen = checked.units[self.row[1]].sheet.name
            sheets.sort(key=lambda s: s.name != chosen)
        self.app.push_screen(SheetsScreen(f"Data sheets of {checked.title}", sheets))
