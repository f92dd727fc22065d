"""Start a roster of any game listbuilder knows: the game, the army list or faction (searchable),
and the game's limit (points, optional points or a battle size). The roster itself is built by
`games.new_roster`, as `listbuilder new --game --army --points` builds it."""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.validation import Integer
from textual.widgets import Button, Input, Label, Select, Static

from ...core.new_roster import NewRosterChoices
from ...games import game_name, known_games, new_roster, new_roster_choices
from ...listengine.catalog import Catalog
from .pick import FilteredList, FilterInput, PickItem


def army_items(choices: NewRosterChoices) -> list[PickItem]:
    return [PickItem(army.id, Content.assemble((army.name, "bold"), (f"  {army.details}", "$text-muted")),
                     army.name, army.keywords) for army in choices.armies]


class NewRosterScreen(ModalScreen[Any]):
    """Dismissed with the new roster (of the chosen game's model), or None when cancelled."""

    BINDINGS = [Binding("escape", "dismiss_none", "Cancel", id="new.cancel"),
                Binding("ctrl+s", "create", "Create", id="new.create")]

    def __init__(self, catalog: Catalog, game: str | None = None, army: str | None = None,
                 points: int | None = None) -> None:
        """`game`, `army` and `points`: chosen first (a game listbuilder does not know is not)."""
        super().__init__()
        self.catalog = catalog
        self.games = known_games(catalog)
        self.game = game if game in self.games else self.games[0]
        self.army = army
        self.points = points
        self.choices = new_roster_choices(catalog, self.game)

    def compose(self) -> ComposeResult:
        games = [(game_name(self.catalog, game), game) for game in self.games]
        with Vertical(classes="dialog", id="new-roster"):
            yield Label("New roster", classes="dialog-title")
            with Horizontal(classes="field"):
                yield Label("Game", classes="field-label")
                yield Select(games, value=self.game, allow_blank=False, id="game", compact=True)
            yield Label(id="army-heading", classes="field-heading")
            yield FilteredList(army_items(self.choices), self.army, id="armies")
            with Horizontal(classes="field"):
                yield Label(id="limit-label", classes="field-label")
                yield Input(id="points", type="integer", compact=True, validators=[Integer(minimum=1)])
                yield Select([], id="size", compact=True)
                yield Static(id="points-hint", classes="dialog-hint")
            with Horizontal(classes="field"):
                yield Label("Name", classes="field-label")
                yield Input("", id="name", placeholder="optional", compact=True)
            yield Static("", id="problem", classes="dialog-problem")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Create (^s)", id="create", variant="primary", compact=True)
                yield Button("Cancel (esc)", id="cancel", compact=True)

    def on_mount(self) -> None:
        self._show_choices(self.points)
        self.query_one("#armies Input").focus()

    def _show_choices(self, points: int | None) -> None:
        """The chosen game's armies and limit, `points` (else the game's default) offered first."""
        choices = self.choices
        self.query_one("#army-heading", Label).update(choices.army_label)
        what = choices.army_label.lower()
        self.query_one("#armies FilterInput", FilterInput).placeholder = f"Type to filter the {what}s"
        self.query_one("#limit-label", Label).update("Battle size" if choices.limit == "battle size" else "Points")
        self.query_one("#points-hint", Static).update(Content(choices.hint))
        self.query_one("#problem", Static).update(Content(choices.unavailable))
        limit = choices.default if points is None else points
        sizes = self.query_one("#size", Select)
        sizes.display = choices.limit == "battle size"
        sizes.set_options((f"{name} ({size:,})", size) for name, size in choices.sizes)
        if choices.sizes:
            sizes.value = limit if limit in dict(choices.sizes).values() else choices.default
        field = self.query_one("#points", Input)
        field.display = not sizes.display
        field.value = "" if limit is None else str(limit)
        field.placeholder = "none" if choices.limit == "optional points" else ""

    @on(Select.Changed, "#game")
    def _game(self, event: Select.Changed) -> None:
        if event.value == self.game:
            return  # the select telling its first value: what was chosen first stays
        self.game = str(event.value)
        self.choices = new_roster_choices(self.catalog, self.game)
        armies = self.query_one("#armies", FilteredList)
        armies.items = army_items(self.choices)
        armies.fill(armies.query_one(Input).value)
        self._show_choices(None)

    @on(FilteredList.Chosen)
    def _army(self, event: FilteredList.Chosen) -> None:
        self.query_one("#size" if self.choices.limit == "battle size" else "#points").focus()

    def _limit(self) -> int | None | str:
        """The limit chosen, or what is wrong with it."""
        if self.choices.limit == "battle size":
            size = self.query_one("#size", Select).value
            return size if isinstance(size, int) else "Choose a battle size."
        points = self.query_one("#points", Input)
        if not points.value and self.choices.limit == "optional points":
            return None
        return int(points.value) if points.value and points.is_valid else "The points limit is a whole number above 0."

    @on(Input.Submitted, "#points, #name")
    @on(Button.Pressed, "#create")
    def action_create(self) -> None:
        army = self.query_one("#armies", FilteredList).highlighted
        limit = self._limit()
        problem = self.query_one("#problem", Static)
        if self.choices.unavailable:
            problem.update(Content(self.choices.unavailable))
        elif army is None:
            problem.update(f"Choose the {self.choices.army_label.lower()}.")
        elif isinstance(limit, str):
            problem.update(limit)
        else:
            roster = new_roster(self.catalog, self.game, army.value, limit)
            if isinstance(roster, str):
                problem.update(Content(roster))
            else:
                self.dismiss(roster.model_copy(update={"name": self.query_one("#name", Input).value.strip()}))

    @on(Button.Pressed, "#cancel")
    def action_dismiss_none(self) -> None:
        self.dismiss(None)
