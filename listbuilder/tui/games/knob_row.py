"""One setting of a formation on one line: `Dreadnought      [-] 1 [+]      +50 each`.

Keys step, toggle or open the choices; a click on [-] or [+] steps, a click on the value toggles
or opens the choices. The row only says what the player asked (a message up); the screen edits.
"""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from ...listengine.knobs import Knob

STEP_WIDTH = 9  # "[-] 2 [+]"


class KnobRow(Widget, can_focus=True):
    BINDINGS = [
        Binding("left,minus", "turn('down')", "Less", id="knob.fewer", tooltip="Take one fewer"),
        Binding("right,plus,equals_sign", "turn('up')", "More", id="knob.more", tooltip="Take one more"),
        Binding("enter,space", "turn('choose')", "Pick", id="knob.choose",
                tooltip="Toggle a yes/no setting, or open the list of choices"),
    ]

    knob: reactive[Knob | None] = reactive(None, layout=False)
    first_in_group: reactive[bool] = reactive(True)
    problem: reactive[bool] = reactive(False)
    cost_column: reactive[int] = reactive(0)  # the widest cost among the formation's settings, and a space

    class Turned(Message):
        """The player asked to step ('up', 'down'), toggle or choose ('choose') a knob."""

        def __init__(self, row: KnobRow, action: str) -> None:
            super().__init__()
            self.row = row
            self.action = action

        @property
        def control(self) -> KnobRow:
            return self.row

    def __init__(self, knob: Knob, first_in_group: bool = True) -> None:
        super().__init__()
        self.set_reactive(KnobRow.knob, knob)
        self.set_reactive(KnobRow.first_in_group, first_in_group)
        self.tooltip = knob.summary or None
        self.set_class(bool(knob.reason), "-unavailable")
        self._value_columns = (0, 0)

    @property
    def key(self) -> tuple[str, ...]:
        assert self.knob is not None
        return self.knob.key

    def watch_knob(self, knob: Knob | None) -> None:
        self.tooltip = knob.summary if knob else None
        self.set_class(bool(knob and knob.reason), "-unavailable")

    def watch_problem(self, problem: bool) -> None:
        self.set_class(problem, "-problem")

    def _widths(self, knob: Knob) -> tuple[int, int]:
        """Columns for the group's name and for the cost: narrower in a small terminal, the cost's as
        narrow as the formation's costs allow, and either wider for a name or cost that would be cut
        while the row has room ('Fire Support Platoon' with nothing beside it, a Warhound count's
        '1: 275 / 2: 500')."""
        width = self.size.width
        label_width, most = (16, 10) if width < 56 else (22, 14)
        cost_width = max(len(knob.cost) + 1, min(self.cost_column, most) if self.cost_column else most)
        value_width = STEP_WIDTH + 1 if knob.kind != "choice" else 12  # a stepper, or room for a choice
        if not knob.label and self.first_in_group:  # nothing beside the name: it may run on
            label_width = max(label_width, min(len(knob.group) + 2, width - cost_width - value_width))
        return label_width, cost_width

    def render(self) -> Content:
        knob = self.knob
        assert knob is not None
        width = self.size.width
        label_width, cost_width = self._widths(knob)
        mark = Content.styled("✖" if self.problem else " ", "bold $error")
        group = Content.styled(knob.group if self.first_in_group else "", "bold")
        group = Content.assemble(mark, group.truncate(label_width - 2, ellipsis=True, pad=True).pad_right(1))
        middle_width = max(STEP_WIDTH + 1, width - label_width - cost_width)
        if knob.kind == "choice":
            sub = Content.styled(f"{knob.label} " if knob.label else "", "$text-muted")
            value = Content.assemble((knob.value, "bold"), (" ▾", "$accent"))
            value = value.truncate(max(6, middle_width - sub.cell_length), ellipsis=True)
            sub = sub.truncate(middle_width - value.cell_length, ellipsis=True)
        else:
            # steppers and toggles line up in one column, just left of the cost
            sub = Content(knob.label)
            if knob.kind == "step":
                value = Content.assemble(("[-]", "bold $accent"), f"{knob.value:^3}", ("[+]", "bold $accent"))
            elif knob.kind == "toggle":
                value = Content.assemble("   ", ("[x]" if knob.value == "yes" else "[ ]", "bold $accent"), "   ")
            else:
                value = Content.styled("✕ remove", "bold $error")
            sub = sub.truncate(max(0, middle_width - value.cell_length - 1), ellipsis=True, pad=True).pad_right(1)
        middle = Content.assemble(sub, value).truncate(middle_width, pad=True)
        start = label_width + sub.cell_length
        self._value_columns = (start, start + value.cell_length)
        cost = Content.styled(knob.cost, "$text-muted").right(cost_width)
        return Content.assemble(group, middle, cost)

    def action_turn(self, action: str) -> None:
        self.post_message(self.Turned(self, action))

    def on_click(self, event: events.Click) -> None:
        knob = self.knob
        start, end = self._value_columns
        if knob is None or not start <= event.x < end:
            return
        if knob.kind == "step":
            self.action_turn("down" if event.x < start + STEP_WIDTH // 2 else "up")
        else:
            self.action_turn("choose")
