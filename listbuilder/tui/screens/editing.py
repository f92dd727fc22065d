"""What every editor screen does the same way, whatever the game: the app's undo, saving,
opening and printing, the command palette's commands and the f1 help."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, cast

from textual.binding import Binding

from ..widgets.title_bar import Title, TitleBar
from .help import HelpScreen

if TYPE_CHECKING:
    from ..app import EditorApp

Command = tuple[str, str, Callable[[], object]]  # what the command palette shows, its help, what it runs


def history_bindings(prefix: str) -> list[Binding]:
    """The keys for EditorActions' undo, redo and save, alike on every editor screen; `prefix`
    keeps each screen's binding ids its own."""
    return [
        Binding("ctrl+z", "undo", "Undo", id=f"{prefix}undo", tooltip="Undo the last edit"),
        Binding("ctrl+y", "redo", "Redo", id=f"{prefix}redo", show=False, tooltip="Redo the edit last undone"),
        Binding("ctrl+s", "save", "Save", id=f"{prefix}save",
                tooltip="Save the roster (the previous version is kept as .bak)"),
    ]


def file_bindings(prefix: str) -> list[Binding]:
    """The keys for EditorActions' save as, open and new, alike on every editor screen (open and
    new take a roster of any game: the app then shows that game's editor screen)."""
    return [
        Binding("ctrl+w", "save_as", "Save as", id=f"{prefix}save-as", show=False,
                tooltip="Save the roster to another file"),
        Binding("ctrl+o", "open", "Open", id=f"{prefix}open", show=False, tooltip="Open a roster file"),
        Binding("ctrl+n", "new", "New", id=f"{prefix}new", show=False, tooltip="Start a new roster, of any game"),
    ]


class EditorActions:
    """Key actions handed to the editor app (mixed into a textual Screen), and the title bar."""

    title_shown: Title | None = None  # what the screen's TitleBar shows, kept for when it is composed
    palette_help = "Every action of the editor, by name"  # what the command palette offers, for the f1 help

    def show_title(self, title: Title) -> None:
        self.title_shown = title
        bar = self.query_one_optional(TitleBar)  # type: ignore[attr-defined]  (kept by Textual, where query walks)
        if bar is not None:
            bar.show(title)

    @property
    def editor(self) -> EditorApp:
        return cast("EditorApp", self.app)  # type: ignore[attr-defined]

    def action_undo(self) -> None:
        self.editor.undo()

    def action_redo(self) -> None:
        self.editor.redo()

    def action_save(self) -> None:
        self.editor.save()

    def action_save_as(self) -> None:
        self.editor.save_as()

    def action_open(self) -> None:
        self.editor.open()

    def action_new(self) -> None:
        self.editor.new()

    def action_print(self) -> None:
        self.editor.print_pdf()

    def action_copy_text(self) -> None:
        self.editor.copy_text()

    def action_duplicate_roster(self) -> None:
        self.editor.duplicate()

    # -- the command palette (tui/commands.py) and the help -----------------------------------

    def palette_actions(self) -> list[Command]:
        """The screen's actions it can do now, from its key bindings, with their tooltips."""
        found = []
        for binding in self.BINDINGS:  # type: ignore[attr-defined]
            action = binding.action.split("(")[0]
            if binding.description and self.check_action(action, ()):  # type: ignore[attr-defined]
                found.append((binding.description, binding.tooltip,
                              partial(self.run_action, binding.action)))  # type: ignore[attr-defined]
        return found

    def palette_picks(self) -> list[Command]:
        """What else the palette finds by name: what can be added, the roster's entries to go to."""
        return []

    def help_sections(self) -> list[tuple[str, list[Binding]]]:
        """The f1 help's sections of the screen's own keys."""
        return [("Roster", list(self.BINDINGS))]  # type: ignore[attr-defined]

    def action_help(self) -> None:
        app = self.editor
        everywhere = [Binding(app.COMMAND_PALETTE_BINDING, "", "Command palette", tooltip=self.palette_help),
                      *(b for b in app.BINDINGS if isinstance(b, Binding))]
        app.push_screen(HelpScreen([*self.help_sections(), ("Everywhere", everywhere)]))
