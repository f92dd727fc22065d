"""Start a roster: the game, the army list (searchable) and the points limit."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.validation import Integer
from textual.widgets import Button, Input, Label, Select, Static

from ...core.catalog import Catalog
from ...core.roster import Roster
from .pick import FilteredList, PickItem

DEFAULT_POINTS = 3000


def army_items(catalog: Catalog, game: str) -> list[PickItem]:
    items = []
    for army_id in catalog.army_ids(game):
        army = catalog.lists[game][army_id]
        allies = ", ".join(catalog.lists[game][a.list].name for a in army.allies)
        prompt = Content.assemble((army.name, "bold"), (f"  {army.section} · strategy {army.strategy_rating} · "
                                                         f"{len(army.formations)} formations", "$text-muted"))
        if allies:
            prompt = Content.assemble(prompt, (f" · allies: {allies}", "$text-muted"))
        items.append(PickItem(army_id, prompt, army.name, f"{army_id} {army.section} {allies}"))
    return items


class NewRosterScreen(ModalScreen[Roster | None]):
    BINDINGS = [Binding("escape", "dismiss_none", "Cancel", id="new.cancel"),
                Binding("ctrl+s", "create", "Create", id="new.create")]

    def __init__(self, catalog: Catalog, game: str | None = None, army: str | None = None,
                 points: int | None = None) -> None:
        super().__init__()
        self.catalog = catalog
        self.game = game if game in catalog.games else sorted(catalog.games)[0]
        self.army = army
        self.points = points or DEFAULT_POINTS

    def compose(self) -> ComposeResult:
        games = [(settings.name, game_id) for game_id, settings in sorted(self.catalog.games.items())]
        with Vertical(classes="dialog", id="new-roster"):
            yield Label("New roster", classes="dialog-title")
            with Horizontal(classes="field"):
                yield Label("Game", classes="field-label")
                yield Select(games, value=self.game, allow_blank=False, id="game", compact=True)
            yield Label("Army list", classes="field-heading")
            yield FilteredList(army_items(self.catalog, self.game), self.army, "Type to filter the army lists",
                               id="armies")
            with Horizontal(classes="field"):
                yield Label("Points", classes="field-label")
                yield Input(str(self.points), id="points", type="integer", compact=True,
                            validators=[Integer(minimum=1)])
                yield Static(id="points-hint", classes="dialog-hint")
            with Horizontal(classes="field"):
                yield Label("Name", classes="field-label")
                yield Input("", id="name", placeholder="optional", compact=True)
            yield Static("", id="problem", classes="dialog-problem")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Create (^s)", id="create", variant="primary", compact=True)
                yield Button("Cancel (esc)", id="cancel", compact=True)

    def on_mount(self) -> None:
        self.query_one("#armies Input").focus()
        self._points_hint()

    def _points_hint(self) -> None:
        points = self.catalog.games[self.game].points
        self.query_one("#points-hint", Static).update(f"balanced for {points.min:,}-{points.max:,}")

    @on(Select.Changed, "#game")
    def _game(self, event: Select.Changed) -> None:
        self.game = str(event.value)
        self._points_hint()
        armies = self.query_one("#armies", FilteredList)
        armies.items = army_items(self.catalog, self.game)
        armies.fill(armies.query_one(Input).value)

    @on(FilteredList.Chosen)
    def _army(self, event: FilteredList.Chosen) -> None:
        self.query_one("#points", Input).focus()

    @on(Input.Submitted, "#points, #name")
    @on(Button.Pressed, "#create")
    def action_create(self) -> None:
        army = self.query_one("#armies", FilteredList).highlighted
        points = self.query_one("#points", Input)
        problem = self.query_one("#problem", Static)
        if army is None:
            problem.update("Choose an army list.")
        elif not points.value or not points.is_valid:
            problem.update("The points limit is a whole number above 0.")
        else:
            self.dismiss(Roster(game=self.game, army=army.value, points=int(points.value),
                                name=self.query_one("#name", Input).value.strip()))

    @on(Button.Pressed, "#cancel")
    def action_dismiss_none(self) -> None:
        self.dismiss(None)
