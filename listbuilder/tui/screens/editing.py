"""What every editor screen does the same way, whatever the game: the app's undo, saving,
opening and printing."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ..widgets.title_bar import Title, TitleBar

if TYPE_CHECKING:
    from ..app import EditorApp


class EditorActions:
    """Key actions handed to the editor app (mixed into a textual Screen), and the title bar."""

    title_shown: Title | None = None  # what the screen's TitleBar shows, kept for when it is composed

    def show_title(self, title: Title) -> None:
        self.title_shown = title
        for bar in self.query(TitleBar):  # type: ignore[attr-defined]
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
