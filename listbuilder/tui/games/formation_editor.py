"""The selected formation: what it is made of, its derived values, and every setting it offers."""

from __future__ import annotations

from collections.abc import Callable

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Static

from ...core.findings import Finding
from ...core.names import plural
from ...listengine.engine import BuiltFormation
from ...listengine.knobs import Knob
from ...listengine.lines import garrison_text, title, unit_line, upgrades_text
from ...report.safe import printable
from ..widgets.roster_view import set_border_title
from .knob_row import KnobRow


def summary(built: BuiltFormation) -> Content:
    """Name and points; units (transports and attached characters shown); what is charged as written."""
    lines = [Content.assemble((printable(title(built)), "bold"), "  ", (f"{built.points:,} pts", "bold $accent")),
             Content(unit_line(built))]
    if built.refused:
        lines.append(Content.assemble(("Charged as written: ", "$error"), upgrades_text(built, only_refused=True)))
    return Content("\n").join(lines)


def derived(built: BuiltFormation) -> Content:
    """The formation's derived values: units, initiative, break point, half strength, garrison."""
    d = built.derived
    if not d:
        return Content("")
    break_point = "—" if d.get("break_point") is None else str(d["break_point"])
    half = "—" if d.get("half_strength") is None else str(d["half_strength"])
    lines = [Content(f"{plural(d['units'], 'unit')} · initiative {d['initiative']} · break point {break_point} · "
                     f"half strength {half}")]
    garrison = d.get("garrison")
    if garrison:
        mark = ("✔ ", "$success") if garrison["eligible"] else ("✘ ", "$text-muted")
        lines.append(Content.assemble(mark, garrison_text(built)))
    return Content("\n").join(lines)


class SteadyStatic(Static):
    """Text that lays the screen out again only when its height changes: new numbers in as many
    lines repaint this widget alone (a layout repaints the whole screen)."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.shown: Content | None = None
        self.lines = 0

    def show(self, text: Content | str) -> None:
        content = Content(text) if isinstance(text, str) else text
        if content == self.shown:
            return
        lines = len(content.wrap(self.size.width)) if content.plain and self.size.width else 0  # 0 wide: hidden
        self.update(content, layout=lines != self.lines)
        self.shown, self.lines = content, lines


class SettingsScroll(VerticalScroll, can_focus=False, inherit_bindings=False):
    """Scrolls to the focused setting; ↑ and ↓ are the editor's (they move between settings)."""

    def on_resize(self) -> None:
        self.keep_focus_in_view()  # the findings pane grew or shrank

    def keep_focus_in_view(self) -> None:
        """Bring the setting in focus into view once the screen is laid out again: a longer
        summary, rows mounted above it or a taller findings pane move it."""
        self.call_after_refresh(self._scroll_to_focus)

    def _scroll_to_focus(self) -> None:
        focused = self.screen.focused
        if isinstance(focused, KnobRow) and focused.parent is not None and focused.parent.parent is self:
            self.scroll_to_widget(focused, animate=False, immediate=True)


class FormationEditor(Vertical):
    """Shows one formation; its rows of settings are rebuilt only when the set of settings
    changes, so the focus stays on the row being edited."""

    BINDINGS = [
        Binding("up", "step_focus(-1)", "Previous setting", id="knob.previous", show=False),
        Binding("down", "step_focus(1)", "Next setting", id="knob.next", show=False),
    ]

    def __init__(self, describe: Callable[[list[str]], Content | None] = lambda units: None, **kwargs) -> None:
        """`describe`: the datasheets of units in a few lines, shown for the setting in focus."""
        super().__init__(**kwargs)
        self.describe = describe
        self.rows: list[KnobRow] = []  # kept here: mounting and removing finish later
        self.hinted: Knob | None = None  # the setting whose help is shown

    def compose(self) -> ComposeResult:
        with SettingsScroll(id="editor-scroll"):
            yield SteadyStatic(id="summary")
            yield SteadyStatic(id="derived")  # hidden while a setting is edited in a short terminal
            yield Vertical(id="knobs")
        yield SteadyStatic(id="hint")

    def show(self, built: BuiltFormation | None, knobs: list[Knob], findings: list[Finding],
             absent: Content | str = "") -> None:
        """Show `built` and its settings, `knobs` (`built` is None when nothing is selected or the
        formation is unknown: `absent` says why)."""
        set_border_title(self, f"#{built.index + 1} {built.name}" if built else "Formation")
        if built is None:
            self.query_one("#summary", SteadyStatic).show(absent)
            self.query_one("#derived", SteadyStatic).show("")
            self._rows([])
            return
        self.query_one("#summary", SteadyStatic).show(summary(built))
        self.query_one("#derived", SteadyStatic).show(derived(built))
        rows = self._rows(knobs)
        for row in rows:
            assert row.knob is not None
            knob = row.knob
            row.problem = any(knob.covers(f.path[2:]) for f in findings if f.severity == "error")
        focused = self.screen.focused
        if isinstance(focused, KnobRow) and focused in rows and focused.knob is not None:
            self._show_hint(focused.knob)  # its reason may have come or gone with the edit
        self.query_one(SettingsScroll).keep_focus_in_view()

    def _rows(self, knobs: list[Knob]) -> list[KnobRow]:
        """Rows for `knobs`: a row whose setting stays is kept (and its focus with it); a row whose
        setting is gone shows the new setting in its place, if one comes there; only the rows
        still missing are mounted and only those left over removed (each of which lays the screen
        out again)."""
        box = self.query_one("#knobs", Vertical)
        old = self.rows
        kept = {row.key: row for row in old}
        wanted = {knob.key for knob in knobs}
        focused = self.screen.focused
        lost = focused.key if isinstance(focused, KnobRow) and focused in old and focused.key not in wanted else None
        rows: list[KnobRow] = []
        new: list[KnobRow] = []
        spare: list[KnobRow] = []  # rows of settings gone, not shown again
        place = 0  # how far through the old rows the new ones have come
        for i, knob in enumerate(knobs):
            first = i == 0 or knobs[i - 1].group != knob.group
            row = kept.get(knob.key)
            if row is not None:
                at = old.index(row)
                spare += [r for r in old[place:at] if r.key not in wanted]
                place = max(place, at + 1)
            elif place < len(old) and old[place].key not in wanted:
                row, place = old[place], place + 1
            else:
                rows.append(KnobRow(knob, first))
                new.append(rows[-1])
                continue
            row.knob = knob
            row.first_in_group = first
            rows.append(row)
        spare += [r for r in old[place:] if r.key not in wanted]
        if spare:
            box.remove_children(spare)
        for i, row in enumerate(rows):
            if row in new:
                later = next((r for r in rows[i + 1:] if r not in new), None)
                box.mount(row, before=later) if later is not None else box.mount(row)
        cost_column = max((len(knob.cost) + 1 for knob in knobs), default=0)  # the costs right-aligned in one column
        for row in rows:
            row.cost_column = cost_column
        self.rows = rows
        if lost is not None:
            self.focus_knob(lost)
        return rows

    def focus_knob(self, where: tuple[str, ...]) -> bool:
        """Focus the row of the setting at `where` (a knob's key, or a finding's path inside the
        formation, names as written), else the first row; False when there are no rows."""
        rows = self.rows
        if not rows:
            return False
        target = next((r for r in rows if r.key == where), None)
        target = target or next((r for r in rows if r.knob is not None and r.knob.covers(where)), rows[0])
        target.focus()
        return True

    def focus_first(self) -> bool:
        rows = self.rows
        if rows:
            rows[0].focus()
        return bool(rows)

    def action_step_focus(self, offset: int) -> None:
        """Move to the next or previous setting at once: the next key goes to the row focused
        here (a deferred focus, or a message answered later, would send it to the old row)."""
        focused, rows = self.screen.focused, self.rows
        if focused in rows:
            index = rows.index(focused) + offset
            if 0 <= index < len(rows):
                self.screen.set_focus(rows[index])

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        if isinstance(event.widget, KnobRow) and event.widget.knob is not None:
            self.query_one(SettingsScroll).keep_focus_in_view()  # focused as it was mounted, or under a dialog
            self._show_hint(event.widget.knob)

    def _show_hint(self, knob: Knob) -> None:
        """The help and datasheets of the setting in focus, drawn again only when it changed."""
        if knob == self.hinted:
            return
        self.hinted = knob
        # the unit chosen, or the first it may add
        chosen = [c.unit for c in knob.choices if c.label == knob.value and c.unit]
        sheets = self.describe(chosen if knob.kind == "choice" else knob.adds[:1])
        help_text = Content.assemble((f"✖ {knob.reason}. " if knob.reason else "", "$warning"),
                                     (knob.summary, "$text-muted"))
        self.query_one("#hint", SteadyStatic).show(self._hint(help_text, sheets))

    def _hint(self, help_text: Content, sheets: Content | None) -> Content:
        """The setting's help in whole sentences (all of it where it fits), then as many lines of
        the datasheets as there is room for: a third of the pane, at least three lines."""
        width = max(1, self.query_one("#hint").size.width or self.content_region.width)
        room = max(3, self.content_region.height // 3)
        lines = help_text.wrap(width)
        while len(lines) > room:  # the last whole sentence that fits, then "…"
            cut = help_text.plain.rfind(". ", 0, len(help_text.plain) - 2)
            if cut < 0:
                break
            help_text = help_text[:cut + 1] + Content.styled(" …", "$text-muted")
            lines = help_text.wrap(width)
        for paragraph in sheets.split("\n") if sheets is not None else []:  # whole lines of the datasheets
            wrapped = paragraph.wrap(width)
            if len(lines) + len(wrapped) > room:
                break
            lines += wrapped
        return Content("\n").join(lines)

    def on_resize(self) -> None:
        # 80×24: while a setting is edited, its rows and help take the derived values' room
        self.set_class(self.size.height < 24, "-short")

    def on_descendant_blur(self) -> None:
        self.hinted = None
        self.query_one("#hint", SteadyStatic).show("")
