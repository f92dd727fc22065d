"""The roster editor: an immutable Roster with an undo history, checked after every edit by the same
`validate` as `listbuilder check`, and saved atomically with its comments."""

from __future__ import annotations

import gc
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from time import perf_counter
from typing import Any

from textual import on, work
from textual.app import App
from textual.binding import Binding
from textual.filter import LineFilter
from textual.message import Message
from textual.notifications import SeverityLevel

from ..core.findings import LoadFailure, finding_text
from ..data.yamlfile import Document
from ..exits import DEMO_ROSTER, EXIT_UNREADABLE
from ..games import known_games, new_roster, new_roster_choices, summarise, system_for, unknown_game, validate
from ..listengine.catalog import ArmyView, Catalog
from ..listengine.engine import FormationCache, RosterResult
from ..listengine.roster import Roster
from ..report.text import failure_text
from ..rosters.files import RosterFile, backup_path, dump, read_list_file, read_roster, save_bytes, save_text
from ..rosters.lists import is_list
from .commands import EditorCommands
from .games import editor_screen
from .history import History
from .neutral import Neutral
from .screens.dialogs import ROSTER_SUFFIXES, AskScreen, PathScreen, TextScreen
from .screens.new_roster import NewRosterScreen
from .widgets.title_bar import Title


def file_stem(roster: Roster) -> str:
    """A file name for a roster that has none yet: 'ultramarines-2nd-company'."""
    fallback = getattr(roster, "army", None) or getattr(roster, "faction", "")
    return re.sub(r"[^0-9a-z]+", "-", (roster.name or fallback).casefold()).strip("-") or "roster"


NEUTRAL = Neutral()  # one filter: each line drawn keeps its filtered form, cached by filter


class EditorApp(App[None]):
    """Each edit is checked at once while checking fits in a frame (measured on the last check:
    about 2 ms for 20 Epic formations, 8-10 ms for a 40k Strike Force on an idle machine), so
    that its result is painted with no hand-off to a thread and back; and in a worker thread,
    off the keyboard's path, once a roster makes it dearer; results of rosters edited since
    are dropped."""

    CSS_PATH = "app.tcss"
    TITLE = "listbuilder"
    COMMANDS = App.COMMANDS | {EditorCommands}
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", id="quit", priority=True, show=False,
                        tooltip="Quit (asks first when there are unsaved changes)")]

    inline_check_ms = 1000 / 60
    last_check_ms = 0.0

    class Checked(Message):
        """A roster checked in the worker thread."""

        def __init__(self, result: RosterResult) -> None:
            super().__init__()
            self.result = result

    def __init__(self, catalog: Catalog, roster: Roster, *, document: Document | None = None,
                 path: Path | None = None, demo: Path | None = None, unsaved: bool = False,
                 ask_new: tuple[str | None, str | None, int | None] | None = None, notice: str | None = None) -> None:
        """`demo`: the bundled roster `roster` was read from; it is never saved over. `unsaved`:
        a new roster, not on disk yet. `ask_new`: open the new-roster dialog on start with this
        game, army and points filled in (and quit if it is cancelled)."""
        super().__init__()
        self.catalog = catalog
        self.history = History(roster)
        # as on disk (None: not saved yet); quitting asks first when the roster differs
        self.saved: Roster | None = None if unsaved else roster
        self.document = document
        self.path = path
        self.demo = demo
        self.ask_new = ask_new
        self.notice = notice  # shown once the editor is up: a list another tool wrote is saved as a new roster file
        self.formation_cache: FormationCache = {}  # formations built by earlier checks, reused while unchanged
        self.result = self._timed_check(roster)
        self.main = self._editor_screen(roster)

    def _editor_screen(self, roster: Roster) -> Any:
        """The editor screen of the roster's game, showing the last check (`result`) once mounted;
        the title's data version becomes the game's: the user's imported data's revision (40k), else
        the shipped data's."""
        self.data_version = summarise(self.result).data_revision or self.catalog.data_version
        screen = editor_screen(roster.game)()
        screen.roster = roster
        screen.result = self.result
        screen.selected = 0 if screen.entries(roster) else None
        return screen

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters, then `Neutral` on every line drawn: no control character or bidi
        override from a roster or file name reaches the terminal."""
        return [*super().get_line_filters(), NEUTRAL]

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """One toast at a time: the newest replaces any still shown, so that toasts never pile up
        over the points bar (each is four lines or more at 80×24)."""
        self.clear_notifications()
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    @property
    def view(self) -> ArmyView:
        roster = self.history.current
        army = self.catalog.find_list(roster.game, roster.army)
        assert army is not None
        return self.catalog.view(roster.game, army.id)

    @property
    def dirty(self) -> bool:
        return self.history.current != self.saved

    def on_mount(self) -> None:
        # The catalog and the screen live as long as the app: leaving them out of the collector's
        # full passes (some 25 ms each) spares a stutter while typing.
        gc.collect()
        gc.freeze()
        self._titles()
        # Pushed over the blank default screen rather than being it: `switch_screen` replaces a pushed
        # screen (one with a result callback), so that a roster of another game gets its own editor.
        self.push_screen(self.main)
        if self.ask_new is not None:
            self.push_screen(NewRosterScreen(self.catalog, *self.ask_new), self._started)
        if self.notice:
            self.notify(self.notice, timeout=10, markup=False)

    def _started(self, roster: Roster | None) -> None:
        if roster is None:
            self.exit()
        else:
            self._load(roster, None, self.path, on_disk=False)

    @property
    def roster_title(self) -> Title:
        """What the title bar shows (the app's own title stays put: changing it repaints the
        whole screen)."""
        roster = self.history.current
        army = self.main.army_name(roster, self.catalog)
        where = "demo" if self.demo is not None else self.path.name if self.path else "not saved yet"
        return Title(roster.name or "Unnamed roster", army, where, self.dirty, self.data_version)

    def _titles(self) -> None:
        self.main.show_title(self.roster_title)

    # -- edits and checking --------------------------------------------------------------

    def commit(self, roster: Roster, what: str, focus: int | None, run: object = None) -> None:
        """Record an edit, then check and show it; `run`: see History.push."""
        if not self.history.push(roster, what, focus, run):
            return
        self._present(focus)

    def _present(self, focus: int | None) -> None:
        self.main.roster = self.history.current
        self.main.selected = focus
        self._titles()
        if self.last_check_ms <= self.inline_check_ms:
            self._show(self._timed_check(self.history.current))
        else:
            self.check_in_worker(self.history.current)

    def _timed_check(self, roster: Roster) -> RosterResult:
        start = perf_counter()
        result = validate(roster, self.catalog, self.formation_cache)
        self.last_check_ms = (perf_counter() - start) * 1000
        return result

    @work(thread=True, exclusive=True, group="check")
    def check_in_worker(self, roster: Roster) -> None:
        self.post_message(self.Checked(self._timed_check(roster)))

    @on(Checked)
    def _checked(self, message: Checked) -> None:
        self._show(message.result)

    def _show(self, result: RosterResult) -> None:
        if result.roster is not self.history.current:
            return  # a later edit is being checked
        self.result = result
        self.main.show(result)

    def undo(self) -> None:
        state = self.history.undo()
        if state is None:
            self.bell()
            return
        self._present(state.focus)
        self.notify(f"Undid: {state.what}", timeout=2, markup=False)

    def redo(self) -> None:
        state = self.history.redo()
        if state is None:
            self.bell()
            return
        self._present(state.focus)
        self.notify(f"Redid: {state.what}", timeout=2, markup=False)

    def _load(self, roster: Roster, document: Document | None, path: Path | None, on_disk: bool = True) -> None:
        """Edit `roster` from now on; a roster of a game with another editor screen gets that screen
        in place of the current one (`switch_screen` replaces the top of the stack, where the
        editor's screen is once the dialog that chose the roster is dismissed)."""
        self.history.reset(roster)
        self.saved = roster if on_disk else None
        self.document = document
        self.path = path
        self.demo = None
        if isinstance(self.main, editor_screen(roster.game)):
            self._present(0 if self.main.entries(roster) else None)
            return
        self.result = self._timed_check(roster)
        self.main = self._editor_screen(roster)
        self._titles()
        self.switch_screen(self.main)

    # -- files -----------------------------------------------------------------------------

    def _then_if_settled(self, then: Callable[[], None]) -> None:
        """Run `then` once unsaved changes are saved or knowingly dropped (or at once if none)."""
        if not self.dirty:
            then()
            return

        def answered(answer: str | None) -> None:
            if answer == "save":
                self.save(then)
            elif answer == "discard":
                then()

        self.push_screen(AskScreen(f"{self.roster_title.name} has unsaved changes.",
                                   [("save", "Save", "s"), ("discard", "Don't save", "d"), ("cancel", "Cancel", "c")]),
                         answered)

    def save(self, then: Callable[[], None] | None = None) -> None:
        if self.path is None or self.demo is not None:
            self.save_as(then)
        elif self._write(self.path) and then is not None:
            then()

    def save_as(self, then: Callable[[], None] | None = None) -> None:
        suggested = self.path or Path.cwd() / f"{file_stem(self.history.current)}.yaml"

        def chosen(path: Path | None) -> None:
            if path is None:
                return
            if not path.suffix:
                path = path.with_suffix(ROSTER_SUFFIXES[0])
            if self.demo is not None and path.resolve() == self.demo.resolve():
                self.notify("The demo roster is never saved over: choose another file.", severity="warning",
                            markup=False)
                return
            if path.exists() and (self.path is None or path.resolve() != self.path.resolve()):
                def overwrite(answer: str | None) -> None:
                    if answer == "replace" and self._write(path) and then is not None:
                        then()

                self.push_screen(AskScreen(f"{path} exists. Replace it? (It is kept as {backup_path(path).name}.)",
                                           [("replace", "Replace", "r"), ("cancel", "Cancel", "c")]), overwrite)
            elif self._write(path) and then is not None:
                then()

        self.push_screen(PathScreen("Save the roster as", suggested), chosen)

    def _write(self, path: Path) -> bool:
        roster = self.history.current
        try:
            save_text(path, dump(roster, self.document))
        except OSError as error:
            self.notify(f"Could not save {path}: {error.strerror or error}", severity="error", markup=False)
            return False
        self.path, self.demo, self.saved = path, None, roster
        self._titles()
        kept = f" (the previous version is {backup_path(path).name})" if backup_path(path).exists() else ""
        self.notify(f"Saved {path}{kept}", timeout=3, markup=False)
        return True

    def open(self) -> None:
        def chosen(path: Path | None) -> None:
            if path is None:
                return
            try:
                roster_file, target, notice = open_roster(self.catalog, path)
            except LoadFailure as failure:
                problems = "\n".join(finding_text(f) for f in failure.findings[:5])
                self.notify(f"{path} cannot be read:\n{problems}", severity="error", timeout=10, markup=False)
                return
            except OSError as error:
                self.notify(f"{path} cannot be read: {error.strerror or error}", severity="error", markup=False)
                return
            self._load(roster_file.roster, roster_file.document if notice is None else None, target, notice is None)
            if notice:
                self.notify(notice, timeout=10, markup=False)

        self._then_if_settled(lambda: self.push_screen(PathScreen("Open a roster", None, browse=True, action="Open"),
                                                       chosen))

    def new(self) -> None:
        """The new-roster dialog, the game, army and limit of this roster chosen first."""
        roster = self.history.current
        shown = summarise(self.result)  # the limit of any game: points, or a 40k battle size's
        army = getattr(roster, "army", None) or getattr(roster, "faction", None)

        def started(new: Roster | None) -> None:
            if new is not None:
                self._load(new, None, None, on_disk=False)

        self._then_if_settled(lambda: self.push_screen(
            NewRosterScreen(self.catalog, roster.game, army, shown.limit if shown.priced else None), started))

    def copy_text(self) -> None:
        """Copy the list as text (as `listbuilder export --format text` writes it) to the clipboard."""
        roster = self.history.current
        write = system_for(roster.game).list_text
        if write is None:
            self.notify(f"listbuilder cannot write {roster.game} rosters as list text yet; ctrl+e prints a PDF",
                        severity="warning", markup=False)
            return
        result = self.result if self.result.roster is roster else validate(roster, self.catalog, self.formation_cache)
        text = write(result, self.catalog, False)
        self.copy_to_clipboard(text)
        self.notify(f"Copied the list as text ({len(text.splitlines())} lines)", timeout=3, markup=False)

    def duplicate(self) -> None:
        """Go on with a copy of the roster under a new name, not saved yet (its comments kept)."""
        roster = self.history.current

        def named(name: str | None) -> None:
            if name and name.strip():
                self._load(roster.model_copy(update={"name": name.strip()}), self.document, None, on_disk=False)
                self.notify(f"Now editing the copy “{name.strip()}” (not saved yet)", timeout=3, markup=False)

        self._then_if_settled(lambda: self.push_screen(TextScreen(
            "Duplicate the roster under a new name", f"{roster.name or 'Roster'} (copy)"), named))

    def print_pdf(self) -> None:
        try:
            from ..report.pdf import roster_pdf
        except ImportError:
            self.notify("Printing is unavailable: this installation has no PDF report yet.", severity="warning",
                        markup=False)
            return
        base = self.path or Path.cwd() / file_stem(self.history.current)

        def chosen(path: Path | None) -> None:
            if path is not None:
                self._render_pdf(path, roster_pdf)

        self.push_screen(PathScreen("Print the roster to a PDF", base.with_suffix(".pdf"), action="Print"), chosen)

    @work(thread=True, exclusive=True, group="print")
    def _render_pdf(self, path: Path, roster_pdf: Callable[..., bytes]) -> None:
        result = validate(self.history.current, self.catalog)
        try:
            save_bytes(path, roster_pdf(result, self.catalog, paper="a4", source=str(self.path) if self.path else None))
        except OSError as error:
            self.call_from_thread(self.notify, f"Could not write {path}: {error.strerror or error}", severity="error",
                                  markup=False)
            return
        except Exception as error:  # the report is another module's: its failure must not end the editing
            self.call_from_thread(self.notify, f"Printing failed: {error}", severity="error", markup=False)
            return
        self.call_from_thread(self.notify, f"Printed {path}", timeout=3, markup=False)

    async def action_quit(self) -> None:
        self._then_if_settled(self.exit)


def run_editor(catalog: Catalog, path: Path | None = None, new: bool = False, *, game: str | None = None,
               army: str | None = None, points: int | None = None) -> int:
    """Open the editor: on `path`, on a new roster (saved to `path` if given), or on the demo."""
    if new:
        app = new_roster_app(catalog, path, game, army, points)
        if isinstance(app, str):
            print(app, file=sys.stderr)
            return EXIT_UNREADABLE
    else:
        try:
            app = opened_app(catalog, path)
        except LoadFailure as failure:
            print(failure_text(failure.findings), file=sys.stderr)  # control characters escaped
            return EXIT_UNREADABLE
        except OSError as error:
            print(f"{path or DEMO_ROSTER}: {error.strerror or error}", file=sys.stderr)
            return EXIT_UNREADABLE
    app.run()
    return app.return_code or 0


def open_roster(catalog: Catalog, path: Path) -> tuple[RosterFile, Path | None, str | None]:
    """A roster file to edit, where saving it writes, and what to tell the user: a list another tool
    wrote (.txt, .ros, .rosz, read as `check` reads it) is left as it is and saved as a new YAML roster
    beside it (asked where when that file exists). Raises LoadFailure or OSError."""
    if not is_list(path):
        return read_roster(path, catalog, str(path), round_trip=True), path, None
    roster_file = read_list_file(path, catalog, str(path))
    target = path.with_suffix(ROSTER_SUFFIXES[0])
    if target.exists():
        return roster_file, None, (f"Opened {path.name}, a list another tool wrote; it is left as it is, and "
                                   f"{target.name} exists: saving asks where to write the roster")
    return roster_file, target, (f"Opened {path.name}, a list another tool wrote; it is left as it is: saving writes "
                                 f"the roster to {target.name}")


def opened_app(catalog: Catalog, path: Path | None) -> EditorApp:
    """The editor on the roster at `path` (a list another tool wrote: see open_roster), or on the demo."""
    if path is None:
        demo = read_roster(DEMO_ROSTER, catalog, "demo/ultramarines.yaml", round_trip=True)
        return EditorApp(catalog, demo.roster, document=demo.document, demo=DEMO_ROSTER)
    roster_file, target, notice = open_roster(catalog, path)
    if notice is None:
        return EditorApp(catalog, roster_file.roster, document=roster_file.document, path=path)
    return EditorApp(catalog, roster_file.roster, path=target, unsaved=True, notice=notice)


def new_roster_app(catalog: Catalog, path: Path | None, game: str | None, army: str | None,
                   points: int | None) -> EditorApp | str:
    """The editor on a new roster: ready when the game, army and (where the game needs one) points
    are all given, else asking for what is missing first. A string says why it cannot start."""
    if path is not None and path.exists():
        return f"{path} exists: open it with `listbuilder edit {path}`"
    if game is not None and game not in known_games(catalog):
        return unknown_game(catalog, game)
    if army is not None and game is None and len(catalog.games) == 1:
        game = next(iter(catalog.games))  # an army list alone: of the one game whose lists are data
    if game is not None and army is not None:
        choices = new_roster_choices(catalog, game)
        roster = new_roster(catalog, game, army, choices.default if points is None else points)
        if isinstance(roster, str):
            return roster
        if points is not None or choices.limit != "points":
            return EditorApp(catalog, roster, path=path, unsaved=True)
        army = roster.army  # known: only the points are asked for
    return EditorApp(catalog, _placeholder(catalog, game, points), path=path, ask_new=(game, army, points))


def _placeholder(catalog: Catalog, game: str | None, points: int | None) -> Any:
    """What shows behind the new-roster dialog: an empty roster of the game asked for (not another
    game's, whose findings would show), else of the first game whose lists are data."""
    choices = new_roster_choices(catalog, game) if game is not None else None
    if game is not None and choices is not None and choices.armies:  # 40k without its data has none
        limit = points or choices.default or (3000 if choices.limit == "points" else None)
        roster = new_roster(catalog, game, choices.armies[0].id, limit)
        if not isinstance(roster, str):
            return roster
    first = sorted(catalog.games)[0]
    return Roster(game=first, army=catalog.army_ids(first)[0], points=points or 3000)
