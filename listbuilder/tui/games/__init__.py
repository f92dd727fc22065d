"""Each game's editor screen, named by the game's system (GameSystem.editor_screen)."""

from __future__ import annotations

from typing import Any

from ...core.system import imported
from ...games import system_for


def editor_screen(game: str) -> type[Any]:
    """The editor screen class of `game`'s rosters, imported only when one is opened."""
    screen: type[Any] = imported(system_for(game).editor_screen)
    return screen
