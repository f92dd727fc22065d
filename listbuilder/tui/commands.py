"""The command palette: every action of the editor (from its key bindings), every formation that
can be added, every datasheet, and every formation of the roster to go to."""

from __future__ import annotations

from functools import partial
from typing import Callable

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.fuzzy import Matcher
from textual.markup import escape

from .knobs import offers
from .screens.main import MainScreen, unique

Command = tuple[str, str, Callable[[], object]]


class EditorCommands(Provider):
    def _main(self) -> MainScreen | None:
        return self.screen if isinstance(self.screen, MainScreen) else None

    def _actions(self, screen: MainScreen) -> list[Command]:
        found = []
        for binding in screen.BINDINGS:
            action = binding.action.split("(")[0]
            if screen.check_action(action, ()) and binding.description:
                found.append((binding.description, binding.tooltip, partial(screen.run_action, binding.action)))
        return found

    def _everything(self, screen: MainScreen) -> list[Command]:
        app = screen.editor
        view = app.view
        found = self._actions(screen)
        for offer in offers(view):
            found.append((f"Add {offer.name}", f"{offer.points}: {offer.contents}",
                          partial(screen.add_formation, offer.name)))
        for v in view.lists():
            for sheet in unique(list(v.units.values())):
                found.append((f"Datasheet: {sheet.name}", v.army.name, partial(screen.action_datasheets, sheet.name)))
        roster = app.history.current
        for i, entry in enumerate(roster.formations):
            found.append((f"Go to #{i + 1} {entry.type}", entry.label or "", partial(screen.select_formation, i)))
        return found

    async def discover(self) -> Hits:
        screen = self._main()
        if screen is not None:
            for title, help_text, command in self._actions(screen):
                yield DiscoveryHit(escape(title), command, help=escape(help_text))

    async def search(self, query: str) -> Hits:
        screen = self._main()
        if screen is None:
            return
        matcher = self.matcher(query)
        for title, help_text, command in self._everything(screen):
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, highlighted(matcher, title), command, text=title, help=escape(help_text))


def highlighted(matcher: Matcher, title: str) -> Content:
    """The title as written, the letters the query matched highlighted. Not Matcher.highlight: it
    reads its candidate as markup, so on an escaped name its offsets fall one off after each `[`."""
    content = Content(title)
    for offset in matcher.fuzzy_search.match(matcher.query, title)[1]:
        if not title[offset].isspace():
            content = content.stylize(matcher.match_style, offset, offset + 1)
    return content
