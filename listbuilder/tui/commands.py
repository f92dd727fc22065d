"""The command palette of every game's editor: the screen's actions (from its key bindings), then
what it offers by name (EditorActions.palette_picks: what can be added, the entries to go to...)."""

from __future__ import annotations

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.fuzzy import Matcher
from textual.markup import escape

from .screens.editing import EditorActions


class EditorCommands(Provider):
    def _editor(self) -> EditorActions | None:
        return self.screen if isinstance(self.screen, EditorActions) else None

    async def discover(self) -> Hits:
        screen = self._editor()
        if screen is not None:
            for title, help_text, command in screen.palette_actions():
                yield DiscoveryHit(escape(title), command, help=escape(help_text))

    async def search(self, query: str) -> Hits:
        screen = self._editor()
        if screen is None:
            return
        matcher = self.matcher(query)
        for title, help_text, command in [*screen.palette_actions(), *screen.palette_picks()]:
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
