"""The roster's formations, its points and caps, and its findings: always in view."""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.visual import Visual, VisualType
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...core.findings import Finding
from ...core.names import plural
from ...games import system_for
from ...listengine.engine import RosterResult
from ...report.safe import printable

ERROR, WARNING = "✖", "▲"
LEGAL = Content.styled("✔ No findings: the roster is legal.", "$success")
EMPTY = Content.styled("The roster is empty: nothing to check yet.", "$text-muted")


def is_empty(roster: Any) -> bool:
    """Does `roster` (of any game) hold no entries: no formation, unit or detachment?"""
    return not getattr(roster, system_for(roster.game).entries_field)


def set_border_title(widget: Widget, title: str) -> None:
    """`title` as written (names are not markup; control characters and bidi overrides shown as
    escapes) on the border; a new border title repaints the whole widget: only when it changed."""
    shown = Content(printable(title))
    if widget.border_title != shown.markup:
        widget.border_title = shown


def formation_problems(findings: list[Finding], index: int) -> list[Finding]:
    return [f for f in findings if f.path[:2] == ("formations", index)]


def where(finding: Finding, roster: Any) -> str:
    """'#3 Tactical › Hunter', '#1 Space Marines detachment › Space Marine Rhino', 'points', 'army':
    the entry a finding is about, as a player names it (an Epic formation, a 40k unit, an Epic
    Remastered detachment and its unit line)."""
    path = finding.path
    entries = getattr(roster, path[0], None) if path and path[0] == system_for(roster.game).entries_field else None
    if entries is not None and len(path) >= 2 and isinstance(path[1], int) and path[1] < len(entries):
        entry = entries[path[1]]
        text = f"#{path[1] + 1} {entry.type}"
        if path[0] == "detachments" and len(path) >= 4 and path[2] == "units" and path[3] < len(entry.units):
            return f"{text} › {entry.units[path[3]].unit}"
        detail = [str(p) for p in path[2:4] if p not in ("upgrades", "type")]
        return text + "".join(f" › {d}" for d in detail)
    if entries is not None:
        return "army"
    return ".".join(str(p) for p in path) or "roster"


Line = tuple[str, int, str, str | None, str, str | None]  # mark, number, type, label, points, faction or ally list


def formation_line(line: Line, width: int) -> Content:
    """'✖ 2   400 Tactical “Hale” · Khorne': numbers and points in columns, then the name; a name
    too long for `width` goes on over a second line rather than being cut where names differ."""
    mark, number, type_name, label, points, note = line
    head = Content.assemble((mark, "bold $error" if mark == ERROR else "$warning"), f"{number:>2} ",
                            (f"{points:>5} ", "$text-muted"))
    name = Content.assemble(printable(type_name), (f" “{printable(label)}”" if label else "", "$text-muted"),
                            (f" · {printable(note)}" if note else "", "$text-muted"))
    room = max(8, width - head.cell_length)
    if name.cell_length <= room:
        return head + name
    first, *rest = name.wrap(room)
    more = Content(" ").join(rest).truncate(room, ellipsis=True)
    return Content("\n").join([head + first, Content(" " * head.cell_length) + more])


def same_prompt(old: Any, new: Any) -> bool:
    """Do two prompts draw alike? (Content's == compares the text alone, not its styles.)"""
    if isinstance(old, Content) and isinstance(new, Content):
        return old.plain == new.plain and old.spans == new.spans
    return bool(old == new)


def redraw_option(view: OptionList, index: int, prompt: VisualType) -> None:
    """Replace one option's prompt and draw only its lines again (OptionList's own
    replace_option_prompt_at_index wraps every option again and draws them all: a few ms per
    edit); where the new prompt takes another number of lines, the list is laid out again."""
    option = view.get_option_at_index(index)
    region = view.scrollable_content_region
    height = view._heights.get(index) if region else None  # as laid out (none before the list has a size)
    option._set_prompt(prompt)
    padding = view.get_component_styles("option-list--option").padding
    width = region.width - view._get_left_gutter_width() - padding.width
    if height is None or lines_taken(view, view._get_visual(option), width) + option._divider != height:
        view._clear_caches()
        return
    for key in [k for k in view._option_render_cache.keys() if k[0] is option]:  # noqa: SIM118 (an LRUCache)
        view._option_render_cache.discard(key)
    view.refresh_lines(view._index_to_line[index], height)


def lines_taken(widget: Widget, visual: Visual, width: int) -> int:
    """How many lines `visual` takes at `width` in `widget`: a text whose every line fits takes as
    many as it has, known without wrapping it (Content.get_height wraps it to count, and drawing
    it then wraps it again)."""
    if isinstance(visual, Content) and not widget.styles.line_pad and "\t" not in visual.plain:
        lines = visual.plain.split("\n")
        if all(cell_len(line) <= width for line in lines):
            return len(lines)
    return visual.get_height(widget.styles, width)


def update_static(static: Static, content: Content) -> None:
    """Show `content` in `static`: the screen is laid out again only where it takes another number
    of lines than what it replaces (Static.update lays it out every time: the whole screen is then
    drawn again), and nothing is drawn where it reads and looks the same."""
    shown = static.content
    if isinstance(shown, Content) and same_prompt(shown, content):
        return
    width = static.content_region.width
    static.update(content, layout=not isinstance(shown, Content) or not width
                  or lines_taken(static, shown, width) != lines_taken(static, content, width))


def update_options(view: OptionList, options: list[Option]) -> bool:
    """Show `options` in `view`: where the list keeps its shape (as many options, the same ones
    disabled), only the prompts that changed are drawn again, and True is returned; else every
    option is set anew (the highlight and the scrolling reset, as set_options does): False."""
    current = view.options
    if len(current) != len(options) or any(old.disabled != new.disabled for old, new in zip(current, options)):
        view.set_options(options)
        return False
    for index, (old, new) in enumerate(zip(current, options)):
        if not same_prompt(old.prompt, new.prompt):
            redraw_option(view, index, new.prompt)
    return True


class FormationList(OptionList):
    """One line per formation (two for a long name): problems, number, points, name, label and
    faction. Only the lines that change are drawn again."""

    BINDINGS = [Binding("right", "select", "Edit", id="formations.edit", show=False)]

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.lines: list[Line] = []
        self.width_drawn = 0

    def show(self, result: RosterResult, selected: int | None) -> None:
        built = {f.index: f for f in result.formations}
        lines: list[Line] = []
        for i, entry in enumerate(result.roster.formations):
            problems = formation_problems(result.findings, i)
            mark = ERROR if any(f.severity == "error" for f in problems) else WARNING if problems else " "
            formation = built.get(i)
            note = None if formation is None else formation.faction or (formation.army.name if formation.is_ally
                                                                         else None)
            lines.append((mark, i + 1, entry.type, entry.label, f"{formation.points:,}" if formation else "?", note))
        self._draw(lines)
        if lines and selected is not None and self.highlighted != min(selected, len(lines) - 1):
            self.highlighted = min(selected, len(lines) - 1)
        set_border_title(self, f"Roster · {len(lines)} formation{'' if len(lines) == 1 else 's'}")

    def _draw(self, lines: list[Line]) -> None:
        width = self.scrollable_content_region.width
        if len(lines) == len(self.lines) and width == self.width_drawn:
            for i, (old, new) in enumerate(zip(self.lines, lines)):
                if old != new:
                    redraw_option(self, i, formation_line(new, width))
        else:
            highlighted = self.highlighted
            self.set_options(Option(formation_line(line, width)) for line in lines)
            if highlighted is not None and lines:
                self.highlighted = min(highlighted, len(lines) - 1)
        self.lines, self.width_drawn = lines, width

    def on_resize(self) -> None:
        if self.lines and self.scrollable_content_region.width != self.width_drawn:
            self._draw(self.lines)


class FindingsList(OptionList):
    """Every finding, errors first; choosing one jumps to the entry it is about."""

    class Chosen(Message):
        def __init__(self, finding: Finding) -> None:
            super().__init__()
            self.finding = finding

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.findings: list[Finding] = []
        self.prompts: dict[tuple[Finding, str], Content] = {}  # those shown, by finding and place

    def show(self, result: Any) -> None:
        """`result`: any game's checked roster (its .roster and .findings). A finding shown before,
        at the same place, keeps its prompt (an edit changes a few findings, if any)."""
        roster = result.roster
        self.findings = sorted(result.findings, key=lambda f: f.severity != "error")
        kept, self.prompts = self.prompts, {}
        prompts = []
        for finding in self.findings:
            key = (finding, where(finding, roster))
            prompt = self.prompts[key] = kept.get(key) or self._prompt(*key)
            prompts.append(prompt)
        prompts = prompts or [EMPTY if is_empty(roster) else LEGAL]
        if [o.prompt for o in self.options] != prompts:  # else only indexes moved with the roster
            highlighted = self.highlighted
            if update_options(self, [Option(prompt, disabled=not self.findings) for prompt in prompts]):
                self.scroll_y = 0  # as when every finding is set anew: back to the top, then to the highlight
                self.scroll_to_highlight()
            elif self.findings:
                self.highlighted = min(highlighted or 0, len(self.findings) - 1)
        errors = sum(1 for f in result.findings if f.severity == "error")
        warnings = len(result.findings) - errors
        set_border_title(self, f"Findings · {errors} error{'' if errors == 1 else 's'}" + (
            f", {warnings} warning{'' if warnings == 1 else 's'}" if warnings else ""))

    @staticmethod
    def _prompt(finding: Finding, place: str) -> Content:
        error = finding.severity == "error"
        parts: list[str | tuple[str, str]] = [
            (f"{ERROR if error else WARNING} ", "bold $error" if error else "bold $warning"),
            (printable(place), "bold"), ": ", printable(finding.message)]
        if finding.suggestion:
            parts.append((f" ({printable(finding.suggestion)})", "italic"))
        if finding.rule:
            parts.append((f" [{finding.rule}]", "$text-muted"))
        return Content.assemble(*parts)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if self.findings:
            self.post_message(self.Chosen(self.findings[event.option_index]))


def points_bar(used: int, limit: int, width: int) -> Content:
    """A bar of `width` cells (at least 4) filled in proportion to `used`, red past the limit."""
    width = max(width, 4)
    filled = min(width, round(width * used / limit)) if limit else width
    style = "$error" if used > limit else "$success"
    return Content.assemble(("█" * filled, style), ("░" * (width - filled), "$text-muted"))


class PointsStatus(Widget):
    """Points used against the limit (a bar and the points left), then each capped category."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.result: RosterResult | None = None

    def show(self, result: RosterResult) -> None:
        self.result = result
        self.refresh()

    def render(self) -> Content:
        result = self.result
        if result is None:
            return Content("")
        width = self.size.width
        total, limit = result.total, result.roster.points
        left = limit - total
        remaining = (f"{left:,} left" if left >= 0 else f"{-left:,} over", "$success" if left >= 0 else "bold $error")
        errors = sum(1 for f in result.findings if f.severity == "error")
        verdict = ((f"✖ {errors} error{'' if errors == 1 else 's'}", "bold $error") if not result.valid
                   else ("empty", "bold $warning") if not result.roster.formations else ("✔ legal", "bold $success"))
        numbers = Content.assemble(f" {total:,} / {limit:,} pts  ", remaining, "  ", verdict)
        bar = points_bar(total, limit, min(40, width - numbers.cell_length - 1))
        return Content("\n").join([Content.assemble(bar, numbers).truncate(width, ellipsis=True),
                                   self._caps_line(result, width)])

    @staticmethod
    def _caps_line(result: RosterResult, width: int) -> Content:
        """Each capped category, what is bought for the army, the strategy rating and activations:
        with a bar for each cap where the line has room for them, else without."""
        derived = result.derived
        rest = []
        if result.purchases:
            rest.append(Content("bought: " + ", ".join(f"{name} ×{n}" for name, (n, _) in result.purchases.items())))
        if "strategy_rating" in derived:
            activations = plural(derived["activations"], "activation")
            rest.append(Content(f"strategy {derived['strategy_rating']} · {activations}"))
        line = Content("")
        for bar_width in (8, 0):
            caps = [Content.assemble(f"{cap.name} ",
                                     *([points_bar(cap.points, cap.limit, bar_width), " "] if bar_width else []),
                                     (f"{cap.points:,}/{cap.limit:,}", "bold $error" if cap.points > cap.limit
                                      else "bold"))
                    for cap in result.caps]
            line = Content(" · ").join([*caps, *rest])
            if line.cell_length <= width:
                break
        return line.truncate(width, ellipsis=True)
