"""The editor for rosters of units (Warhammer 40,000): points, battle size and reserves on top,
the units with their derived values on the left, the findings below; a unit's wargear on a
screen of its own, with its datasheet. It shows what the game system's summary says
(core.system) and edits through games.wh40k10.edits."""

from __future__ import annotations

from concurrent.futures import Future
from functools import partial
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Label, OptionList, Static
from textual.widgets.option_list import Option

from ...core.findings import Finding
from ...core.names import name_key, plural
from ...core.system import EntrySummary, RosterSummary
from ...games import validate
from ...games.wh40k10 import edits
from ...games.wh40k10.catalog import Faction, Unit, weapon_name
from ...games.wh40k10.roster import Wh40kRoster
from ...games.wh40k10.rules import data_of, faction_name, find_faction, installed, may_hover
from ...games.wh40k10.summary import listing
from ...report.safe import printable
from ..screens.dialogs import AskScreen, TextScreen
from ..screens.editing import Command, EditorActions, file_bindings, history_bindings
from ..screens.pick import FilteredList, PickItem, PickScreen
from ..widgets.roster_view import ERROR, FindingsList, points_bar, set_border_title, update_options, update_static
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


def profiles(unit: Unit) -> list[Content]:
    """A line of characteristics per profile: 'Intercessor  M 6" T 4 Sv 3+ W 2 Ld 6+ OC 2'."""
    return [Content.assemble((printable(p.name), "bold"), f"  M {p.movement} T {p.toughness} Sv {p.save}"
                             + (f" ({p.invulnerable_save} invulnerable)" if p.invulnerable_save else "")
                             + f" W {p.wounds} Ld {p.leadership} OC {p.objective_control}") for p in unit.profiles]


def summary_sheet(unit: Unit) -> Content:
    """A datasheet in a few lines, for choosing a unit to add: its profiles, weapons and abilities."""
    weapons = ", ".join(dict.fromkeys(weapon_name(w.name) for w in unit.weapons))
    abilities = ", ".join(a.name for a in unit.abilities)
    return Content("\n").join([*profiles(unit), *(Content.styled(printable(text), "$text-muted") for text in
                                                    (f"Weapons: {weapons}" if weapons else "",
                                                     f"Abilities: {abilities}" if abilities else "") if text)])


def full_sheet(unit: Unit, weapon: str | None) -> tuple[Content, int]:
    """The datasheet for choosing wargear: profiles, what each kind of model comes with, every
    weapon's profile (those of `weapon` picked out); and the line where `weapon` starts (0: none)."""
    lines = profiles(unit)
    lines += [Content.assemble((printable(m.name), "bold"), f" ({m.min}{f'-{m.max}' * (m.max > m.min)}) comes with: ",
                               printable(", ".join(m.default_wargear) or "nothing")) for m in unit.models]
    first = 0
    for w in unit.weapons:
        skill = "BS" if w.kind == "ranged" else "WS"
        text = (f"{w.name.removeprefix('➤').strip()}  {w.range} A {w.attacks} {skill} {w.skill} S {w.strength} "
                f"AP {w.armour_penetration} D {w.damage}" + (f"  [{', '.join(w.keywords)}]" if w.keywords else ""))
        chosen = weapon is not None and name_key(weapon_name(w.name)) == name_key(weapon)
        first = first or (len(lines) if chosen else 0)
        lines.append(Content.styled(printable(text), "bold $accent" if chosen else ""))
    return Content("\n").join(lines), first


State = tuple[str, str]  # a roster's state: the data's revision and the roster's model dump


class RefusalsFound(Message):
    """The Add dialog's refusals of a roster state, worked out in a thread."""

    def __init__(self, state: State, found: dict[str, Finding]) -> None:
        super().__init__()
        self.state, self.found = state, found


EMPTY = "The roster is empty. Press a to add a unit (type to filter)."
NONE = "(none)"


class UnitsScreen(EditorActions, Screen[None]):
    BINDINGS = [
        Binding("a", "add", "Add", id="units.add", tooltip="Add a unit of the faction (type to filter)"),
        Binding("delete,x", "remove", "Remove", id="units.remove", key_display="del", tooltip="Remove the unit"),
        Binding("plus,equals_sign,right", "models(1)", "More", id="units.more", key_display="+",
                tooltip="More models (the next size the datasheet prices)"),
        Binding("minus,left", "models(-1)", "Fewer", id="units.fewer", key_display="-", tooltip="Fewer models"),
        Binding("g", "wargear", "Wargear", id="units.wargear",
                tooltip="Choose the unit's wargear, model by model, and its options, with its datasheet"),
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
        Binding("D", "detachment", "Detachment", id="units.detachment", show=False, tooltip="Choose the detachment"),
        Binding("B", "battle_size", "Battle size", id="units.size", show=False, tooltip="Choose the battle size"),
        Binding("n", "rename", "Name", id="units.rename", show=False, tooltip="Change the roster's name"),
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
        self.hidden_edit = False  # a result came while another screen of the editor was over this one
        self.refusals: tuple[State | None, dict[str, Finding]] = (None, {})  # of a state (refused)
        self.refusing: tuple[State, Future[dict[str, Finding]]] | None = None  # worked out in a thread
        self.settling: Timer | None = None  # until the refusals of the state shown are worked out
        self.legends_shown = True  # the Add dialog's ctrl+l: Legends datasheets listed (marked, last) or not
        self.datasheets_of: tuple[Any, str, list[Unit]] = (None, "", [])  # (data, faction, its datasheets)
        self.army_named: tuple[Any, str, str] = (None, "", "")  # (data, faction, its name)
        self.prompts: dict[tuple[Any, ...], Content] = {}  # the units' lines shown, by what they show

    @staticmethod
    def entries(roster: Wh40kRoster) -> list[Any]:
        return roster.units

    def army_name(self, roster: Wh40kRoster, catalog: Any) -> str:
        """The faction as every view names it (its short name), whatever the roster wrote; kept for
        the data and the faction (the title asks on every edit, and finding it reads every faction)."""
        data = data_of(catalog, roster.faction)
        if self.army_named[0] is not data or self.army_named[1] != roster.faction:
            found = find_faction(data, roster.faction) if data is not None else []
            name = faction_name(data, found[0]) if len(found) == 1 else roster.faction
            self.army_named = (data, roster.faction, name)
        return self.army_named[2]

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
        status = self.query_one("#status", Static)
        status.styles.height, status.styles.max_height = "auto", 3  # the army's line wraps where it is long
        if self.result is not None:
            self.show(self.result)
        self.query_one("#roster-units", OptionList).focus()

    # -- showing ---------------------------------------------------------------------------

    def show(self, result: Any) -> None:
        self.result = result
        self.settle()
        wargear = next((s for s in self.app.screen_stack if isinstance(s, WargearScreen)), None)
        if wargear is not None:  # this screen is hidden under it: shown again when it comes back
            self.hidden_edit = True
            wargear.show(result)
            return
        roster: Wh40kRoster = result.roster
        if self.selected is None or self.selected >= len(roster.units):
            self.selected = len(roster.units) - 1 if roster.units else None
        summary = listing(result)
        update_static(self.query_one("#status", Static),
                      Content("\n").join([self.status(summary), self.army_line(result)]))
        units = self.query_one("#roster-units", OptionList)
        if update_options(units, self.lines(summary, roster) or [Option(EMPTY, disabled=True)]):
            units.scroll_y = 0  # as when every line is set anew: back to the top, then to the unit
            if self.selected is not None and units.highlighted == self.selected:
                units.scroll_to_highlight()
        set_border_title(units, f"Units · {roster.detachment}")
        if self.selected is not None:
            units.highlighted = self.selected
        self.query_one(FindingsList).show(result)

    def on_screen_resume(self) -> None:
        if self.hidden_edit:
            self.hidden_edit = False
            self.show(self.result)

    def status(self, summary: RosterSummary) -> Content:
        left = summary.limit - summary.total
        errors = sum(1 for f in summary.findings if f.severity == "error")
        verdict = ("✔ legal", "bold $success") if summary.valid else (f"✖ {plural(errors, 'error')}", "bold $error")
        numbers = Content.assemble(f" {summary.total:,} / {summary.limit:,} pts  ",
                                   (f"{left:,} left" if left >= 0 else f"{-left:,} over",
                                    "$success" if left >= 0 else "bold $error"), "  ", verdict)
        return Content.assemble(points_bar(summary.total, summary.limit, 30), numbers)

    @staticmethod
    def army_line(result: Any) -> Content:
        """What the player chose for the army, short enough for 80 columns with most names (the
        points are on the line above); it wraps onto a third line where they are longer."""
        warlords = [f"#{c.index + 1} {c.name}" for c in result.units if c.entry.warlord]
        reserves = result.derived["reserves"]
        warlord = Content.assemble("Warlord ", (printable(", ".join(warlords)), "bold")) if warlords else "no Warlord"
        return Content.assemble((printable(result.roster.detachment or "no detachment"), "bold"), " · ", warlord,
                                " · ", result.battle_size.name, " · ",
                                f"Reserves {reserves['points']:,} / {reserves['limit']:,}")

    def lines(self, summary: RosterSummary, roster: Wh40kRoster) -> list[Option]:
        """A unit's line as before keeps its prompt (an edit changes one unit's, or a few)."""
        by_index = {e.index: e for e in summary.entries}
        troubled = {f.path[1] for f in summary.findings if f.path[:1] == ("units",) and len(f.path) > 1}
        kept, self.prompts = self.prompts, {}
        options = []
        for index, entry in enumerate(roster.units):
            shown = by_index.get(index)
            key = (index, index in troubled, entry.type if shown is None else (shown.points, shown.title,
                                                                                tuple(shown.lines)))
            prompt = self.prompts[key] = kept.get(key) or self.prompt(index, index in troubled, entry, shown)
            options.append(Option(prompt))
        return options

    @staticmethod
    def prompt(index: int, troubled: bool, entry: Any, shown: EntrySummary | None) -> Content:
        mark = (f"{ERROR} ", "bold $error") if troubled else ("  ", "")
        if shown is None:
            return Content.assemble(mark, f"{index + 1:>2} ", (entry.type, "bold"),
                                    ("  not a datasheet of this faction", "$error"))
        details = "\n".join(f"      {line}" for line in shown.lines)
        return Content.assemble(mark, f"{index + 1:>2} ", (f"{shown.points:>4} ", "$text-muted"),
                                (shown.title, "bold"), "\n", (details, "$text-muted"))

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
        if action in ("remove", "models", "wargear", "lead", "embark", "enhancement", "warlord", "reserves", "hover"):
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
        return self.roster, self.selected, edits.unit_named(self.datasheets(), entry.type)

    def datasheets(self) -> list[Unit]:
        """The faction's datasheets (edits.faction_units), kept for the data and the faction:
        every key on a unit, and the command palette at every letter typed, asks for them."""
        assert self.roster is not None
        data, faction = self.data, self.roster.faction
        if self.datasheets_of[0] is not data or self.datasheets_of[1] != faction:
            self.datasheets_of = (data, faction, edits.faction_units(data, self.roster))
        return self.datasheets_of[2]

    # -- the Add dialog's refusals ----------------------------------------------------------
    #
    # What the Add dialog dims (edits.refusals) is a check of the whole faction added to the roster:
    # 150-300 ms of processor time. It is kept for the roster's state and the data's revision, so
    # that the command palette (which asks at every letter typed), `a` again, and an edit undone
    # or made and unmade reuse it; and worked out in a thread once an edit's check has been shown
    # and no other edit followed for `refusals_after` seconds, so that `a` finds it ready. One
    # thread at a time: a stale state's finishes first (the engine builds one unit at a time
    # anyway, engine_roster.BUILDING), then the current state's starts.

    refusals_after = 0.4  # seconds an edit's check stays on screen before its refusals are worked out

    def state(self) -> State:
        assert self.roster is not None
        return (self.data.data_revision, self.roster.model_dump_json())

    def settle(self) -> None:
        """Work out the refusals of the roster shown once it has stayed `refusals_after` seconds."""
        if self.settling is not None:
            self.settling.stop()
        self.settling = self.set_timer(self.refusals_after, self._settled)

    def _settled(self) -> None:
        self.settling = None
        if self.roster is not None and self.result is not None and self.result.roster is self.roster \
                and not isinstance(installed(self.editor.catalog), str):  # none to check with
            self.work_out_refusals()

    def work_out_refusals(self) -> Future[dict[str, Finding]] | None:
        """The refusals of the roster's state: kept (a done future), or under way in a thread, started
        here unless another state's are under way (None then: they start when those are found)."""
        state = self.state()
        if self.refusals[0] == state:
            done: Future[dict[str, Finding]] = Future()
            done.set_result(self.refusals[1])
            return done
        if self.refusing is not None:
            return self.refusing[1] if self.refusing[0] == state else None
        assert self.roster is not None
        future: Future[dict[str, Finding]] = Future()
        self.refusing = (state, future)
        check = partial(validate, catalog=self.editor.catalog)
        # described: Textual's default is the work's repr, every datasheet's in full (0.7 s on the UI thread)
        self.run_worker(partial(self._refuse, state, self.data, self.roster, self.datasheets(), check, future),
                        thread=True, group="refusals", description="the Add dialog's refusals")
        return future

    def _refuse(self, state: State, data: Any, roster: Wh40kRoster, units: list[Unit], check: Any,
                future: Future[dict[str, Finding]]) -> None:
        """In the worker thread."""
        try:
            found = edits.refusals(data, roster, units, check)
        except BaseException as error:
            future.set_exception(error)
            raise
        future.set_result(found)
        self.post_message(RefusalsFound(state, found))

    @on(RefusalsFound)
    def _refusals_found(self, message: RefusalsFound) -> None:
        self.refusing = None
        current = self.state()
        if message.state == current:
            self.refusals = (current, message.found)
        for screen in self.app.screen_stack:
            if isinstance(screen, AddUnitScreen) and screen.state == message.state:
                screen.refused(message.found)
        if message.state == current:
            return
        if any(isinstance(s, AddUnitScreen) and s.checking for s in self.app.screen_stack):
            self.work_out_refusals()
        elif self.settling is None:  # it went off while these were under way
            self._settled()

    def refused(self, units: list[Unit]) -> dict[str, Finding]:
        """Of the faction's `units`, those the check refuses in this army, and why, now: kept, or
        awaited from the thread working them out, else worked out here."""
        state = self.state()
        if self.refusing is not None and self.refusing[0] == state:
            return self.refusing[1].result()
        if self.refusals[0] != state:
            assert self.roster is not None
            check = partial(validate, catalog=self.editor.catalog)
            self.refusals = (state, edits.refusals(self.data, self.roster, units, check))
        return self.refusals[1]

    def action_add(self) -> None:
        """The faction's datasheets; those the check refuses in this army dimmed, last, with why
        (until they are known, a line says they are being checked: the dialog opens at once);
        Legends (marked by their name, last) hidden or shown by ctrl+l."""
        assert self.roster is not None
        units = self.datasheets()
        state = self.state()
        refused = self.refusals[1] if self.refusals[0] == state else None
        by_name = {unit.name: unit for unit in units}

        def picked(item: PickItem | None) -> None:  # a dimmed one cannot be picked (its reason is beside it)
            if item is not None and self.roster is not None:
                self.add_unit(item.value)

        self.app.push_screen(AddUnitScreen(self, state, units, refused,
                                           preview=lambda name: summary_sheet(by_name[name])), picked)

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
        units = self.datasheets()
        refused = self.refused(units)
        offered = [unit for unit in units if unit.name not in refused and (self.legends_shown or not unit.legends)]
        found: list[Command] = [(f"Add {unit.name}", sizes(unit), partial(self.add_unit, unit.name))
                                for unit in offered]
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

    def action_wargear(self) -> None:
        roster, index, unit = self._current()
        if unit is None:
            army = self.army_name(roster, self.editor.catalog)
            self.notify(f"{roster.units[index].type} is not a datasheet of {army}.", severity="warning", markup=False)
            return
        self.app.push_screen(WargearScreen(self, index, unit))

    def action_rename(self) -> None:
        assert self.roster is not None

        def named(name: str | None) -> None:
            if name is not None and self.roster is not None:
                self.commit(edits.rename(self.roster, name), "roster name", self.selected)

        self.app.push_screen(TextScreen("Name of the roster", self.roster.name, "e.g. Strike Force Hale"), named)

    def help_sections(self) -> list[tuple[str, list[Binding]]]:
        return [("Roster", [b for b in self.BINDINGS if isinstance(b, Binding)]),
                ("Wargear", [b for b in WargearScreen.BINDINGS if isinstance(b, Binding)])]

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
                      and (sheet := edits.unit_named(self.datasheets(), u.type)) and "Transport" in sheet.keywords]
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
        """Another faction: the units are kept, those it has no datasheet for flagged (D43), once the
        player agrees to what the change does; the detachment becomes one of the new faction's."""
        data = self.data
        named = sorted(((faction_name(data, f), f) for f in data.factions), key=lambda pair: pair[0])
        items = [PickItem(f, Content.assemble((printable(name), "bold"), (f"  {printable(f.name)}", "$text-muted")),
                          name, f"{f.name} {f.faction_keyword}") for name, f in named]
        current = find_faction(data, self.roster.faction) if self.roster else []
        self.pick("Faction", items, current[0] if len(current) == 1 else None, self.change_faction)

    def change_faction(self, faction: Faction) -> None:
        roster = self.roster
        assert roster is not None
        changed = edits.change_faction(self.data, roster, faction)
        if changed == roster:
            return
        what = f"faction {changed.faction}"
        if not roster.units:
            self.commit(changed, what, self.selected)
            return
        strays = edits.units_not_in(self.data, roster, faction)
        listed = ", ".join(f"#{i + 1}" for i in strays[:6]) + (", …" if len(strays) > 6 else "")
        kept = "kept in the roster, marked as errors, for you to replace or remove"
        fit = (f"Every unit is a datasheet of {changed.faction}." if not strays else
               f"No unit is a datasheet of {changed.faction}: {kept}." if len(strays) == len(roster.units) else
               f"{len(strays)} of the {plural(len(roster.units), 'unit')} ({listed}) "
               f"{'is not a datasheet' if len(strays) == 1 else 'are not datasheets'} of {changed.faction}: {kept}.")
        detachment = (f"The detachment stays {changed.detachment}." if changed.detachment == roster.detachment else
                      f"The detachment becomes {changed.detachment or 'none (the faction has none)'}.")

        def answered(answer: str | None) -> None:
            if answer == "change" and self.roster is roster:
                self.commit(changed, what, self.selected)

        self.app.push_screen(AskScreen(printable(f"Change the faction to {changed.faction}? {fit} {detachment} "
                                                 "(ctrl+z undoes it.)"),
                                       [("change", "Change", "y"), ("cancel", "Cancel", "n")]), answered)

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


def add_items(units: list[Unit], refused: dict[str, Finding]) -> list[tuple[bool, PickItem]]:
    """The Add dialog's items, (Legends?, item): those `refused` dimmed, last, with why."""
    items = []
    for unit in sorted(units, key=lambda u: u.name in refused):
        roles = [k for k in ("Character", "Battleline", "Epic Hero", "Dedicated Transport") if k in unit.keywords]
        why = refused.get(unit.name)
        items.append((unit.legends, PickItem(
            unit.name, Content.assemble((unit.name, "bold"), (f"  {sizes(unit)}", "$accent"),
                                        (f"  {', '.join(roles)}" if roles else "", "$text-muted"),
                                        (f"\n  ✖ {printable(why.message)}" if why else "", "$text-muted")),
            unit.name, " ".join(unit.keywords), disabled=why is not None)))
    return items


class AddUnitScreen(PickScreen):
    """The Add dialog: the faction's datasheets, Legends listed (their name marks them) or, by ctrl+l,
    hidden; the choice is the editor's until it closes. Opened before the army's refusals are known
    (`refused` None), it lists every datasheet under a line saying they are being checked, and
    dims the refused once they come (`refused`); a datasheet chosen meanwhile is added then,
    unless refused."""

    BINDINGS = [Binding("ctrl+l", "legends", "Legends", id="add.legends", tooltip="Hide or show Legends datasheets")]
    HINT = "Enter add · Esc cancel · ctrl+l Legends · dimmed: not in this army"

    def __init__(self, units: UnitsScreen, state: State, datasheets: list[Unit], refused: dict[str, Finding] | None,
                 **kwargs: Any) -> None:
        self.units, self.state, self.datasheets = units, state, datasheets
        self.checking = refused is None
        self.every = add_items(datasheets, refused or {})  # (Legends?, item)
        self.held: PickItem | None = None  # chosen while checking
        super().__init__(self._title(), self._shown(), tall=True, hint=self._hint(), **kwargs)

    def _title(self) -> str:
        assert self.units.roster is not None
        army = self.units.army_name(self.units.roster, self.units.editor.catalog)
        return f"Add a unit · {army}" + ("" if self.units.legends_shown else " · Legends hidden")

    def _hint(self) -> str:
        if not self.checking:
            return self.HINT
        if self.held is not None:
            return f"Adding {self.held.name} once checked… · Esc cancel"
        return "Checking what the army refuses… · Enter add · Esc cancel · ctrl+l Legends"

    def _shown(self) -> list[PickItem]:
        return [item for legends, item in self.every if self.units.legends_shown or not legends]

    def on_mount(self) -> None:  # PickScreen's runs too
        if self.checking:  # once painted: a thread working them out would hold the painting back
            self.call_after_refresh(self.units.work_out_refusals)

    def action_legends(self) -> None:
        self.units.legends_shown = not self.units.legends_shown
        self.query_one(".dialog-title", Label).update(Content(self._title()))
        self.query_one(FilteredList).replace(self._shown())

    def on_filtered_list_chosen(self, event: FilteredList.Chosen) -> None:
        event.prevent_default()  # PickScreen's handler, which dismisses, runs only as here
        if not self.checking:
            self.dismiss(event.item)
            return
        self.held = event.item
        self.query_one(".dialog-hint", Static).update(self._hint())

    def refused(self, found: dict[str, Finding]) -> None:
        """The refusals have come: the refused dimmed, last, with why; one chosen meanwhile added."""
        self.checking = False
        self.every = add_items(self.datasheets, found)
        self.query_one(FilteredList).replace(self._shown())
        self.query_one(".dialog-hint", Static).update(self._hint())
        held, self.held = self.held, None
        if held is not None and held.value not in found:
            self.dismiss(held)
        elif held is not None:
            self.app.bell()  # refused: it stays highlighted, its reason beside it


class WargearScreen(EditorActions, Screen[None]):
    """One unit's wargear: for each kind of model (or kinds, where several may carry a weapon), the
    weapons it may take instead of its default loadout, how many models carry each, the most that
    may and the data's limits; then the unit's other choices (`options`, D45) by group, with the
    data's limits and which are chosen; the unit's datasheet under them, the roster's findings
    kept live. Each change is an edit of the roster like any other (undone by ctrl+z)."""

    BINDINGS = [
        Binding("plus,equals_sign,right", "carriers(1)", "One more", id="wargear.more", key_display="+",
                tooltip="One more model carries the weapon (instead of its default)"),
        Binding("minus,left", "carriers(-1)", "One fewer", id="wargear.fewer", key_display="-",
                tooltip="One model fewer carries the weapon"),
        Binding("space", "choose", "Choose", id="wargear.choose", show=False,
                tooltip="Choose the option (in place of another of its group), or stop choosing it; Enter too"),
        Binding("f", "findings", "Findings", id="wargear.findings", show=False,
                tooltip="Go to the findings; Enter on one about a weapon goes to that weapon"),
        Binding("escape,g", "back", "Back", id="wargear.back", tooltip="Back to the units"),
        *history_bindings("wargear."),
        Binding("f1,question_mark", "help", "Help", id="wargear.help", tooltip="Show every key"),
    ]
    # heights fixed but the list's: a longer finding does not push the weapon in hand out of sight
    DEFAULT_CSS = """
    #wargear-title { height: 1; padding: 0 1; background: $panel; }
    #wargear-options, #wargear-findings {
        height: 1fr; border: round $border-blurred; border-title-color: $text-muted; background: $background;
    }
    #wargear-options:focus, #wargear-findings:focus { border: round $border; border-title-color: $text; }
    #wargear-findings { height: 5; }
    #wargear-sheet { height: 7; border: round $border-blurred; padding: 0 1; scrollbar-size-vertical: 1; }
    """

    def __init__(self, units: UnitsScreen, index: int, unit: Unit) -> None:
        super().__init__()
        self.units, self.index, self.unit = units, index, unit
        self.options: list[edits.WargearOption | edits.UnitOption | None] = []  # one per line; None: a heading
        self.sheet_of: str | None = None  # the weapon the datasheet picks out
        self.result: Any = None

    def compose(self) -> ComposeResult:
        yield Static(id="wargear-title")
        yield OptionList(id="wargear-options")
        with VerticalScroll(id="wargear-sheet"):
            yield Static(id="wargear-sheet-text")
        yield FindingsList(id="wargear-findings")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.show(self.units.result)
        self.query_one("#wargear-options", OptionList).focus()

    def show(self, result: Any) -> None:
        """Show the unit as `result` checked it; if an undo took the unit away, go back."""
        units = result.roster.units
        if self.index >= len(units) or name_key(units[self.index].type) != name_key(self.unit.name):
            self.dismiss()
            return
        self.result = result
        checked = next(c for c in result.units if c.index == self.index)
        update_static(self.query_one("#wargear-title", Static), Content.assemble(
            ("Wargear · ", "bold"), printable(f"#{self.index + 1} {checked.title}"), "  ",
            (f"{checked.points} pts", "bold $accent")))
        problems = [f for f in result.findings if f.severity == "error" and f.path[:3] == ("units", self.index,
                                                                                           "wargear")]
        lines: list[Option] = []
        self.options = []
        kinds: tuple[str, ...] | None = None
        offered = edits.wargear_options(self.unit, units[self.index])
        width = min(32, max((len(option.weapon) for option in offered), default=0))  # one column for the counts
        for option in offered:
            if option.kinds != kinds or not lines:
                kinds = option.kinds
                heading = " / ".join(kinds) if kinds else "Any model" if option.on_datasheet else "Not on the datasheet"
                lines.append(Option(Content.styled(printable(heading), "bold"), disabled=True))
                self.options.append(None)
            lines.append(Option(self.line(option, problems, width)))
            self.options.append(option)
        group: str | None = None
        for choice in edits.unit_options(self.units.data, result.roster, result.tree, self.index):
            if choice.group != group:
                group = choice.group
                heading = " · ".join(t for t in (choice.group or "Options", choice.limit) if t)
                lines.append(Option(Content.styled(printable(heading), "bold"), disabled=True))
                self.options.append(None)
            lines.append(Option(Content.assemble(("  ◉ " if choice.chosen else "  ○ ", "bold $accent"),
                                                 (printable(choice.name), "bold" if choice.chosen else ""),
                                                 ("  the data's default" if choice.chosen and not choice.stated
                                                  else "", "$text-muted"))))
            self.options.append(choice)
        view = self.query_one("#wargear-options", OptionList)
        if not update_options(view, lines or [Option("This datasheet has no wargear options.", disabled=True)]):
            set_border_title(view, "Weapons (+ -): carried by/at most, the data's limits · options (Enter)")
            view.highlighted = 1 if len(lines) > 1 else None
            self.draw_sheet(anew=True)
        self.query_one(FindingsList).show(result)

    @staticmethod
    def line(option: edits.WargearOption, problems: list[Finding], width: int) -> Content:
        problem = any(name_key(str(f.path[3])) == name_key(option.weapon) for f in problems if len(f.path) > 3)
        limits = [f"limit {option.limit}" if option.limit else "", option.together]
        return Content.assemble((f"{ERROR} " if problem else "  ", "bold $error"),
                                (f"{printable(option.weapon):<{width}}", "bold" if option.carried else ""),
                                (f" {option.carried:>2}/{option.most:<2}", "bold $accent" if option.carried else ""),
                                ("  " + " · ".join(t for t in limits if t), "$text-muted"),
                                ("  not on the datasheet: remove it" if not option.on_datasheet else "", "$error"))

    @property
    def highlighted(self) -> edits.WargearOption | edits.UnitOption | None:
        index = self.query_one("#wargear-options", OptionList).highlighted
        return self.options[index] if index is not None and index < len(self.options) else None

    @on(OptionList.OptionHighlighted, "#wargear-options")
    def _highlighted(self) -> None:
        self.draw_sheet()

    def draw_sheet(self, anew: bool = False) -> None:
        """The datasheet, the highlighted weapon picked out (drawn again only for another weapon)."""
        option = self.highlighted
        weapon = option.weapon if isinstance(option, edits.WargearOption) else None
        if weapon == self.sheet_of and not anew:
            return
        self.sheet_of = weapon
        sheet, line = full_sheet(self.unit, weapon)
        self.query_one("#wargear-sheet-text", Static).update(sheet)
        self.query_one("#wargear-sheet", VerticalScroll).scroll_to(y=max(0, line - 1), animate=False)
        set_border_title(self.query_one("#wargear-sheet"), f"Datasheet · {self.unit.name}")

    def action_carriers(self, step: int) -> None:
        """On a weapon, one model more or fewer carries it; on an option, + chooses it and - stops."""
        option, roster = self.highlighted, self.units.roster
        if isinstance(option, edits.UnitOption):
            if option.stated == (step < 0):
                self.action_choose()
            else:
                self.app.bell()
            return
        changed = edits.step_wargear(roster, self.index, self.unit, option.weapon, step) if option and roster else None
        if option is None or changed is None:
            self.app.bell()
            return
        _, count = edits.carried(changed.units[self.index], option.weapon)
        self.units.commit(changed, f"{option.weapon}: {count} on #{self.index + 1} {self.unit.name}", self.index)

    @on(OptionList.OptionSelected, "#wargear-options")
    def action_choose(self) -> None:
        """The highlighted option chosen (in place of another of its group), or, stated, no longer."""
        option, roster, tree = self.highlighted, self.units.roster, self.result.tree if self.result else None
        unit = tree.units.get(self.index) if tree is not None else None
        changed = (edits.choose_option(roster, self.index, unit.option, option)
                   if isinstance(option, edits.UnitOption) and roster is not None and unit is not None else None)
        if option is None or changed is None:
            self.app.bell()
            return
        verb = "no longer " if option.stated else ""
        self.units.commit(changed, f"{verb}{option.name} on #{self.index + 1} {self.unit.name}", self.index)

    @on(FindingsList.Chosen)
    def _jump(self, event: FindingsList.Chosen) -> None:
        """A finding on one of the unit's weapons: the cursor goes to that weapon."""
        path = event.finding.path
        rows = [o.weapon if isinstance(o, edits.WargearOption) else None for o in self.options]
        if path[:3] == ("units", self.index, "wargear") and len(path) > 3:
            at = next((i for i, weapon in enumerate(rows) if weapon and name_key(weapon) == name_key(str(path[3]))),
                      None)
            if at is not None:
                self.query_one("#wargear-options", OptionList).highlighted = at
        self.query_one("#wargear-options", OptionList).focus()

    def action_findings(self) -> None:
        self.query_one(FindingsList).focus()

    def action_back(self) -> None:
        self.dismiss()
