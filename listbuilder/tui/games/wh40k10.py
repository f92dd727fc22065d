"""The editor for rosters of units (Warhammer 40,000): points, battle size and reserves on top,
the units with their derived values on the left, the findings below. It shows what the game
system's summary says (core.system) and edits through games.wh40k10.edits."""

from __future__ import annotations

from functools import partial
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from ...core.names import name_key
from ...core.system import RosterSummary
from ...games import summarise
from ...games.wh40k10 import edits
from ...games.wh40k10.catalog import Unit
from ...games.wh40k10.roster import Wh40kRoster
from ...games.wh40k10.rules import data_of, may_hover
from ...report.safe import printable
from ..screens.editing import Command, EditorActions, file_bindings, history_bindings
from ..screens.pick import PickItem, PickScreen
from ..widgets.roster_view import ERROR, FindingsList, points_bar
from ..widgets.title_bar import TitleBar


def sizes(unit: Unit) -> str:
    """A datasheet's unit sizes and their points, the first three prices: '5: 80, 6-10: 160 pts'."""
    runs: list[list[int]] = []  # [fewest models, most models, points] of consecutive sizes of one price
    for size in unit.sizes:
        if runs and runs[-1][2] == size.points and runs[-1][1] + 1 == size.models:
            runs[-1][1] = size.models
        else:
            runs.append([size.models, size.models, size.points])
    shown = [f"{low}-{high}: {points}" if high > low else f"{low}: {points}" for low, high, points in runs]
    return ", ".join(shown[:3]) + (" …" if len(shown) > 3 else "") + " pts"


EMPTY = "The roster is empty. Press a to add a unit (type to filter)."
NONE = "(none)"


class UnitsScreen(EditorActions, Screen[None]):
    BINDINGS = [
        Binding("a", "add", "Add", id="units.add", tooltip="Add a unit of the faction (type to filter)"),
        Binding("delete,x", "remove", "Remove", id="units.remove", key_display="del", tooltip="Remove the unit"),
        Binding("plus,equals_sign,right", "models(1)", "More", id="units.more", key_display="+",
                tooltip="More models (the next size the datasheet prices)"),
        Binding("minus,left", "models(-1)", "Fewer", id="units.fewer", key_display="-", tooltip="Fewer models"),
        Binding("l", "lead", "Lead", id="units.lead", tooltip="Attach this Leader to one of its Bodyguard units"),
        Binding("t", "embark", "Embark", id="units.embark", show=False, tooltip="Start the unit in a Transport"),
        Binding("e", "enhancement", "Enhancement", id="units.enhancement", show=False,
                tooltip="Give the unit an Enhancement of the detachment"),
        Binding("w", "warlord", "Warlord", id="units.warlord", show=False, tooltip="Make the unit the Warlord"),
        Binding("r", "reserves", "Reserves", id="units.reserves", show=False,
                tooltip="Start the unit in (Strategic) Reserves, or not"),
        Binding("h", "hover", "Hover", id="units.hover", show=False,
                tooltip="Declare an Aircraft with Hover in Hover mode, or not"),
        Binding("F", "faction", "Faction", id="units.faction", show=False, tooltip="Choose the army's faction"),
        Binding("D", "detachment", "Detachment", id="units.detachment", tooltip="Choose the detachment"),
        Binding("B", "battle_size", "Battle size", id="units.size", show=False, tooltip="Choose the battle size"),
        Binding("f", "findings", "Findings", id="units.findings", show=False, tooltip="Go to the findings"),
        Binding("escape", "units", "Units", id="units.units", show=False, tooltip="Back to the units"),
        *history_bindings("units."),
        *file_bindings("units."),
        Binding("ctrl+e", "print", "Print PDF", id="units.print", show=False, tooltip="Print the roster to a PDF"),
        Binding("c", "copy_text", "Copy as text", id="units.copy-text", show=False,
                tooltip="Copy the list to the clipboard as the official app's text (listbuilder export)"),
        Binding("f1,question_mark", "help", "Help", id="units.help", tooltip="Show every key"),
    ]
    palette_help = "Every action, datasheet to add and unit to go to, by name"

    def __init__(self) -> None:
        super().__init__()
        self.roster: Wh40kRoster | None = None  # the latest edit
        self.result: Any = None  # the latest checked roster
        self.selected: int | None = None

    @staticmethod
    def entries(roster: Wh40kRoster) -> list[Any]:
        return roster.units

    @staticmethod
    def army_name(roster: Wh40kRoster, catalog: Any) -> str:
        return roster.faction

    @property
    def data(self) -> Any:
        return data_of(self.editor.catalog)

    def compose(self) -> ComposeResult:
        yield TitleBar(self.title_shown, id="title")
        yield Static(id="status")
        yield OptionList(id="roster-units")
        yield FindingsList(id="findings")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        if self.result is not None:
            self.show(self.result)
        self.query_one("#roster-units", OptionList).focus()

    # -- showing ---------------------------------------------------------------------------

    def show(self, result: Any) -> None:
        self.result = result
        roster: Wh40kRoster = result.roster
        if self.selected is None or self.selected >= len(roster.units):
            self.selected = len(roster.units) - 1 if roster.units else None
        summary = summarise(result)
        self.query_one("#status", Static).update(self.status(summary))
        units = self.query_one("#roster-units", OptionList)
        units.set_options(self.lines(summary, roster) or [Option(EMPTY, disabled=True)])
        units.border_title = Content(printable(f"Units · {roster.detachment}"))
        if self.selected is not None:
            units.highlighted = self.selected
        self.query_one(FindingsList).show(result)

    def status(self, summary: RosterSummary) -> Content:
        left = summary.limit - summary.total
        errors = sum(1 for f in summary.findings if f.severity == "error")
        verdict = ("✔ legal", "bold $success") if summary.valid else (f"✖ {errors} errors", "bold $error")
        numbers = Content.assemble(f" {summary.total:,} / {summary.limit:,} pts  ",
                                   (f"{left:,} left" if left >= 0 else f"{-left:,} over",
                                    "$success" if left >= 0 else "bold $error"), "  ", verdict)
        return Content("\n").join([Content.assemble(points_bar(summary.total, summary.limit, 30), numbers),
                                   Content(" · ".join(summary.army_lines))])

    def lines(self, summary: RosterSummary, roster: Wh40kRoster) -> list[Option]:
        by_index = {e.index: e for e in summary.entries}
        troubled = {f.path[1] for f in summary.findings if f.path[:1] == ("units",) and len(f.path) > 1}
        options = []
        for index, entry in enumerate(roster.units):
            shown = by_index.get(index)
            mark = (f"{ERROR} ", "bold $error") if index in troubled else ("  ", "")
            if shown is None:
                options.append(Option(Content.assemble(mark, f"{index + 1:>2} ", (entry.type, "bold"),
                                                       ("  not a datasheet of this faction", "$error"))))
                continue
            details = "\n".join(f"      {line}" for line in shown.lines)
            options.append(Option(Content.assemble(mark, f"{index + 1:>2} ", (f"{shown.points:>4} ", "$text-muted"),
                                                   (shown.title, "bold"), "\n", (details, "$text-muted"))))
        return options

    @on(OptionList.OptionHighlighted, "#roster-units")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.selected = event.option_index

    @on(FindingsList.Chosen)
    def _jump(self, event: FindingsList.Chosen) -> None:
        path = event.finding.path
        if len(path) >= 2 and path[0] == "units" and isinstance(path[1], int):
            self.selected = path[1]
            self.query_one("#roster-units", OptionList).highlighted = path[1]
        self.query_one("#roster-units", OptionList).focus()

    # -- editing ---------------------------------------------------------------------------

    def commit(self, roster: Wh40kRoster, what: str, focus: int | None) -> None:
        self.editor.commit(roster, what, focus)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("remove", "models", "lead", "embark", "enhancement", "warlord", "reserves", "hover"):
            return True if self.selected is not None and self.roster and self.selected < len(self.roster.units) \
                else None
        return True

    def pick(self, title: str, items: list[PickItem], chosen: Any, then: Any) -> None:
        def picked(item: PickItem | None) -> None:
            if item is not None and self.roster is not None:
                then(item.value)

        self.app.push_screen(PickScreen(title, items, chosen, hint="Type to filter · Enter choose · Esc cancel",
                                        tall=len(items) > 12), picked)

    def _current(self) -> tuple[Wh40kRoster, int, Any]:
        assert self.roster is not None and self.selected is not None
        entry = self.roster.units[self.selected]
        return self.roster, self.selected, edits.unit_named(self.data, self.roster, entry.type)

    def action_add(self) -> None:
        assert self.roster is not None
        items = []
        for unit in edits.faction_units(self.data, self.roster):
            roles = [k for k in ("Character", "Battleline", "Epic Hero", "Dedicated Transport") if k in unit.keywords]
            items.append(PickItem(unit.name,
                                  Content.assemble((unit.name, "bold"), (f"  {sizes(unit)}", "$accent"),
                                                   (f"  {', '.join(roles)}" if roles else "", "$text-muted")),
                                  unit.name, " ".join(unit.keywords)))
        self.pick(f"Add a unit · {self.roster.faction}", items, None, self.add_unit)

    def add_unit(self, name: str) -> None:
        """Add a unit of datasheet `name` at the end and select it."""
        assert self.roster is not None
        self.commit(edits.add_unit(self.roster, name), f"add {name}", len(self.roster.units))

    def select_unit(self, index: int) -> None:
        self.selected = index
        units = self.query_one("#roster-units", OptionList)
        units.highlighted = index
        units.focus()

    def palette_picks(self) -> list[Command]:
        assert self.roster is not None
        found: list[Command] = [(f"Add {unit.name}", sizes(unit), partial(self.add_unit, unit.name))
                                for unit in edits.faction_units(self.data, self.roster)]
        found += [(f"Go to #{i + 1} {unit.type}", unit.label or "", partial(self.select_unit, i))
                  for i, unit in enumerate(self.roster.units)]
        return found

    def action_remove(self) -> None:
        roster, index, _ = self._current()
        changed = edits.remove_unit(roster, index)
        self.commit(changed, f"remove #{index + 1} {roster.units[index].type}",
                    min(index, len(changed.units) - 1) if changed.units else None)

    def action_models(self, step: int) -> None:
        roster, index, unit = self._current()
        changed = edits.step_models(roster, index, unit, step) if unit else None
        if changed is None:
            self.app.bell()
            return
        self.commit(changed, f"models of #{index + 1} {unit.name}", index)

    def _link(self, field: str, title: str, candidates: list[int]) -> None:
        roster, index, _ = self._current()
        items = [PickItem(None, Content(NONE), NONE)]
        items += [PickItem(i, Content.assemble(f"#{i + 1} ", (edits.reference(roster, i), "bold")),
                           edits.reference(roster, i)) for i in candidates]
        self.pick(f"{title} · #{index + 1} {roster.units[index].type}", items, None,
                  lambda target: self.commit(edits.link(roster, index, field, target), f"{field} of #{index + 1}",
                                             index))

    def action_lead(self) -> None:
        roster, index, unit = self._current()
        if unit is None or unit.leader is None:
            self.notify(f"{roster.units[index].type} has no Leader ability.", severity="warning", markup=False)
            return
        named = {name_key(t.name) for t in unit.leader.units}
        bodyguards = [i for i, u in enumerate(roster.units) if i != index and name_key(u.type) in named]
        self._link("leads", "Lead", bodyguards)

    def action_embark(self) -> None:
        roster, index, _ = self._current()
        transports = [i for i, u in enumerate(roster.units) if i != index
                      and (sheet := edits.unit_named(self.data, roster, u.type)) and "Transport" in sheet.keywords]
        self._link("embarked_in", "Embark in", transports)

    def action_enhancement(self) -> None:
        roster, index, _ = self._current()
        items = [PickItem(None, Content(NONE), NONE)]
        items += [PickItem(e.name, Content.assemble((e.name, "bold"), (f"  {e.points} pts", "$accent"),
                                                    (f"  {e.restrictions}" if e.restrictions else "", "$text-muted")),
                           e.name) for e in edits.enhancements(self.data, roster)]
        self.pick(f"Enhancement · {roster.detachment}", items, roster.units[index].enhancement,
                  lambda name: self.commit(edits.change_unit(roster, index, enhancement=name),
                                           f"enhancement of #{index + 1}", index))

    def action_warlord(self) -> None:
        roster, index, _ = self._current()
        self.commit(edits.make_warlord(roster, index), f"warlord #{index + 1}", index)

    def action_reserves(self) -> None:
        roster, index, _ = self._current()
        self.commit(edits.change_unit(roster, index, reserves=not roster.units[index].reserves),
                    f"reserves of #{index + 1}", index)

    def action_hover(self) -> None:
        roster, index, unit = self._current()
        if unit is None or not may_hover(unit):
            self.notify(f"{roster.units[index].type} has no Hover ability.", severity="warning", markup=False)
            return
        self.commit(edits.change_unit(roster, index, hover=not roster.units[index].hover),
                    f"Hover mode of #{index + 1}", index)

    def action_faction(self) -> None:
        assert self.roster is not None
        items = [PickItem(f.name, Content.assemble((f.name, "bold"), (f"  {f.faction_keyword}", "$text-muted")),
                          f.name, f.faction_keyword) for f in self.data.factions]
        self.pick("Faction", items, None, lambda name: self.commit(
            self.roster.model_copy(update={"faction": name}), "faction", self.selected))

    def action_detachment(self) -> None:
        assert self.roster is not None
        items = [PickItem(d.name, Content.assemble((d.name, "bold"), (
            "  " + ", ".join(e.name for e in d.enhancements), "$text-muted")), d.name)
            for d in edits.detachments(self.data, self.roster)]
        self.pick("Detachment", items, self.roster.detachment, lambda name: self.commit(
            self.roster.model_copy(update={"detachment": name}), "detachment", self.selected))

    def action_battle_size(self) -> None:
        assert self.roster is not None
        items = [PickItem(s.name, Content.assemble((s.name, "bold"), (f"  {s.points:,} points", "$accent")), s.name)
                 for s in self.data.system.battle_sizes]
        self.pick("Battle size", items, self.roster.battle_size, lambda name: self.commit(
            self.roster.model_copy(update={"battle_size": name}), "battle size", self.selected))

    def action_findings(self) -> None:
        self.query_one(FindingsList).focus()

    def action_units(self) -> None:
        self.query_one("#roster-units", OptionList).focus()
