"""The `listbuilder` command: the editor (edit, new; a bare `listbuilder` opens it on the demo
roster), check, print, armies, schema."""

from __future__ import annotations

import argparse
import codecs
import contextlib
import errno
import io
import json
import os
import sys
import types
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, cast

from . import __version__
from .cli_data import add_data_commands
from .exits import DEMO_ROSTER, EXIT_ILLEGAL, EXIT_INTERNAL, EXIT_LEGAL, EXIT_UNREADABLE

if TYPE_CHECKING:
    from .core.event import Event
    from .listengine.catalog import Catalog

# Only argparse and the command table load at start (`--help` stays instant); each command imports
# what it runs: the engine and models, ruamel, reportlab, textual (tests/test_cli_imports.py).



def _catalog() -> Catalog | None:
    """The game data, or None (and the reason on stderr) when it is broken.

    Called first: what it imports and loads (the models, the catalog) lives as long as the process,
    so it is kept out of the garbage collector's sight (`long_lived`)."""
    from .core.longlived import long_lived

    with long_lived():
        from .core.findings import LoadFailure
        from .data.catalog import load_catalog
        from .report.text import failure_text

        try:
            return load_catalog()
        except LoadFailure as failure:
            print("the bundled game data is broken:\n" + failure_text(failure.findings), file=sys.stderr)
            return None


def _event(options: argparse.Namespace, catalog: Catalog) -> Event | None:
    """The event's rules from --event and the options that override it; raises LoadFailure."""
    given = {key: value for key, value in (("points", options.points), ("game", options.game),
                                            ("armies", options.army), ("data", options.data)) if value is not None}
    if not options.event and not given:
        return None  # no event's model imported, nor its validator built
    from .core.event import Event
    from .core.findings import LoadFailure, Location
    from .games import known_games
    from .rosters.batch import read_event
    from .rosters.events import event_problems

    event = read_event(Path(options.event), catalog) if options.event else Event()
    event = event.model_copy(update=given)
    problems = event_problems(event, catalog, known_games(catalog))
    if problems:
        raise LoadFailure([p.located(Location(f"--{'army' if p.path[0] == 'armies' else p.path[0]}"))
                           for p in problems])
    return event if event != Event() else None


def _checked_folder(options: argparse.Namespace, catalog: Catalog, event: Event | None, form: str,
                    priced: bool = False) -> tuple[list[Any], list[Any], list[str]]:
    """The rosters named or found in the folders named (else the demo roster), each checked and
    rendered in `form` on every core, a progress bar on stderr; the files skipped; empty folders.
    `priced`: each list stating a total says which installed version of the data it fits."""
    from .report.folder import check_all
    from .report.progress import Progress

    items, skipped, empty = _roster_items(options)
    progress = Progress(len(items), getattr(sys.stderr, "unescaped", sys.stderr))
    submissions = []
    for done, submission in enumerate(check_all(items, catalog, event, form, options.jobs, priced), start=1):
        submissions.append(submission)
        progress.step(done)
    progress.close()
    return submissions, skipped, empty


def _roster_items(options: argparse.Namespace) -> tuple[list[Any], list[Any], list[str]]:
    """The rosters named or found in the folders named (else the demo roster), the event's file left
    out; the files skipped; the folders holding no roster, each said on stderr."""
    from .rosters.batch import RosterItem, roster_files

    if options.rosters:
        leave_out = {Path(options.event).resolve()} if options.event else set()
        items, skipped, empty = roster_files(options.rosters, leave_out)
    else:
        items, skipped, empty = [RosterItem(DEMO_ROSTER, "demo/ultramarines.yaml")], [], []
    for folder in empty:
        print(f"{folder}: no roster file (.yaml or .yml) in this folder or below it", file=sys.stderr)
    return items, skipped, empty


def _folder_setup(options: argparse.Namespace) -> tuple[Catalog, Event | None] | None:
    """The game data and the event (if any) a folder command checks against; None, with why on
    stderr, when the data is broken or the event's rules cannot be used."""
    from .core.findings import LoadFailure
    from .data.catalog import with_data
    from .report.text import failure_text

    catalog = _catalog()
    if catalog is None:
        return None
    try:
        event = _event(options, catalog)
    except LoadFailure as failure:
        print("the event's rules cannot be used:\n" + failure_text(failure.findings), file=sys.stderr)
        return None
    if event is None or event.data is None:
        return catalog, event
    from .core.event import Event

    rest = event.model_copy(update={"data": None})  # the version checked against: each roster's report names it
    return with_data(catalog, event.data), (rest if rest != Event() else None)


def _catalog_of(options: argparse.Namespace) -> Catalog | None:
    """The game data with the version of the imported data `--data` names (else the default); None,
    with why on stderr, when the data is broken or no version is called that."""
    from .core.findings import LoadFailure
    from .data.catalog import with_data
    from .report.text import failure_text

    catalog = _catalog()
    if catalog is None or options.data is None:
        return catalog
    try:
        return with_data(catalog, options.data)
    except LoadFailure as failure:
        print("--data: " + failure_text(failure.findings), file=sys.stderr)
        return None


def _described(event: Event | None, catalog: Catalog) -> str:
    """The event as reports name it ('' where there is none)."""
    from .games import game_name

    return event.describe(game_name(catalog, event.game) if event.game else "") if event else ""


def command_check(options: argparse.Namespace) -> int:
    from .core.longlived import long_lived

    with long_lived():  # modules live as long as the process: imported out of the collector's way
        from .report.safe import printable_lines
        from .report.submissions import Provenance, report, summary_text

    setup = _folder_setup(options)
    if setup is None:
        return EXIT_UNREADABLE
    catalog, event = setup
    submissions, skipped, empty = _checked_folder(options, catalog, event, options.format, priced=True)
    provenance = Provenance.of(__version__, catalog.data_version, submissions, _described(event, catalog))
    heading = event.name if event and event.name else "Roster check"
    document = report(options.format, submissions, skipped, provenance, heading)
    sys.stdout.write(printable_lines(document) if options.format in ("text", "json") else document)
    if options.format != "text" and (len(submissions) > 1 or skipped):
        print(printable_lines(summary_text(submissions, skipped, name_illegal=False)), file=sys.stderr)
    return _folder_exit({s.verdict for s in submissions}, empty)


def command_stats(options: argparse.Namespace) -> int:
    """What the field plays, over every roster that can be read (legal or not); exit 0 when counted,
    2 when a file could not be read (named in the report) or a folder holds no roster, 3 on a bug."""
    from .games import game_name, known_games
    from .report.safe import printable_lines
    from .report.stats import field_stats, stats_report
    from .report.submissions import Provenance

    setup = _folder_setup(options)
    if setup is None:
        return EXIT_UNREADABLE
    catalog, event = setup
    submissions, skipped, empty = _checked_folder(options, catalog, event, "stats")
    provenance = Provenance.of(__version__, catalog.data_version, submissions, _described(event, catalog))
    names = {game: game_name(catalog, game) for game in known_games(catalog)}
    heading = f"{event.name}: field statistics" if event and event.name else "Field statistics"
    document = stats_report(options.format, field_stats(submissions, skipped, provenance, names), heading)
    sys.stdout.write(printable_lines(document) if options.format in ("text", "json") else document)
    return _folder_exit({s.verdict for s in submissions}, empty, judged=False)


def command_pack(options: argparse.Namespace) -> int:
    """Write the event pack: exit 0 every list legal, 1 one is illegal, 2 a file could not be read (its
    page says why), a folder holds no roster or the pack cannot be written, 3 on a bug."""
    from .core.names import plural
    from .games import game_name, known_games
    from .report.pack import ORDERS, anonymised, checked, ordered, pack_html, submissions
    from .report.safe import printable
    from .report.stats import field_stats
    from .report.submissions import ILLEGAL, INTERNAL, UNREADABLE, Provenance
    from .rosters.files import save_bytes

    setup = _folder_setup(options)
    if setup is None:
        return EXIT_UNREADABLE
    catalog, event = setup
    items, skipped, empty = _roster_items(options)
    if not items:
        print("no roster to pack: nothing written", file=sys.stderr)
        return EXIT_UNREADABLE
    lists = ordered(checked(items, catalog, event), options.order)
    if options.anonymise:
        lists = anonymised(lists)
    reported = submissions(lists)
    provenance = Provenance.of(__version__, catalog.data_version, reported, _described(event, catalog))
    heading = f"{event.name}: event pack" if event and event.name else "Event pack"
    line = f"Lists {dict(zip(ORDERS, ORDER_HELP))[options.order]}; {provenance.line()}."
    stats = field_stats(reported, [], provenance, {game: game_name(catalog, game) for game in known_games(catalog)})
    output = Path(options.output)
    form = options.format or ("html" if output.suffix.lower() in (".html", ".htm") else "pdf")
    if form == "html":
        document = pack_html(lists, heading, line, stats).encode("utf-8")
    else:
        from .report.pdf.pack import pack_pdf  # reportlab is loaded only to print

        document = pack_pdf(lists, catalog, heading, line, options.paper, stats)
    try:
        save_bytes(output, document)
    except OSError as error:
        print(printable(f"{output}: cannot write the pack: {error.strerror or error}"), file=sys.stderr)
        return EXIT_UNREADABLE
    verdicts = [p.verdict for p in lists]
    print(printable(f"{output}: {len(lists)} lists, {verdicts.count('LEGAL')} legal")
          + "".join(f", {verdicts.count(v)} {v.lower()}" for v in (ILLEGAL, UNREADABLE, INTERNAL) if v in verdicts)
          + (f"; {plural(len(skipped), 'file')} skipped" if skipped else ""))
    return _folder_exit(set(verdicts), empty)


def _folder_exit(verdicts: set[str], empty: list[Any], judged: bool = True) -> int:
    """A folder command's exit: 3 on a bug, 2 a file could not be read or a folder held no roster,
    else (where lists are judged) 1 one is illegal, 0 all are legal."""
    from .report.submissions import ILLEGAL, INTERNAL, UNREADABLE

    if INTERNAL in verdicts:
        return EXIT_INTERNAL
    if empty or UNREADABLE in verdicts:
        return EXIT_UNREADABLE
    return EXIT_ILLEGAL if judged and ILLEGAL in verdicts else EXIT_LEGAL


ORDER_HELP = ("by file name", "by player (the roster's name, else its file's name)", "by game, army, then player")


def _checked_roster(path: str, catalog: Catalog) -> Any:
    """The roster file checked, or None with why it cannot be read on stderr."""
    from .core.findings import LoadFailure
    from .report.text import failure_text
    from .rosters.batch import check_file

    try:
        return check_file(Path(path), catalog, path)
    except LoadFailure as failure:
        print(f"{path}: UNREADABLE\n" + failure_text(failure.findings), file=sys.stderr)
        return None


def command_export(options: argparse.Namespace) -> int:
    """Write a roster as the list text players post, in its game's form; exit 2 if it cannot be read
    or its game has no list text yet."""
    from .core.names import plural
    from .games import system_for
    from .report.safe import printable_lines
    from .rosters.files import save_text

    catalog = _catalog_of(options)
    result = None if catalog is None else _checked_roster(options.roster, catalog)
    if result is None:
        return EXIT_UNREADABLE
    if options.format in ("ros", "rosz"):
        return _export_battlescribe(options, result)
    write = system_for(result.roster.game).list_text
    if write is None:
        print(f"{options.roster}: `listbuilder export` cannot write {result.roster.game} rosters as list text yet; "
              f"`listbuilder print` makes a PDF of it", file=sys.stderr)
        return EXIT_UNREADABLE
    text = write(result, catalog, options.format == "markdown")
    if options.output:
        save_text(Path(options.output), text)
    else:  # names from the file may hold control characters or bidi overrides: escaped on the terminal
        sys.stdout.write(printable_lines(text))
    if not result.valid:
        errors = sum(1 for f in result.findings if f.severity == "error")
        print(f"{options.roster}: note: the roster is ILLEGAL ({plural(errors, 'error')}); "
              "`listbuilder check` says why", file=sys.stderr)
    return EXIT_LEGAL


def _export_battlescribe(options: argparse.Namespace, result: Any) -> int:
    """`export --format ros|rosz`: the roster as a BattleScribe roster file for BattleScribe and New Recruit."""
    from .battlescribe.importing import RosterWriteError, write_roster_rosz, write_roster_xml
    from .games import system_for
    from .report.safe import printable, printable_lines
    from .rosters.files import save_bytes

    write = system_for(result.roster.game).battlescribe_roster
    made = write(result) if write is not None else (f"{result.roster.game} rosters cannot be written as BattleScribe "
                                                     "rosters (only 40k's: BattleScribe has no data of the others)")
    if isinstance(made, str):
        print(printable(f"{options.roster}: {made}"), file=sys.stderr)
        return EXIT_UNREADABLE
    if options.format == "rosz" and not options.output:
        print("a .rosz is a zip archive: give the file to write with -o FILE.rosz", file=sys.stderr)
        return EXIT_UNREADABLE
    try:
        data = (write_roster_rosz if options.format == "rosz" else write_roster_xml)(made)
    except RosterWriteError as error:
        print(printable(f"{options.roster}: {error}"), file=sys.stderr)
        return EXIT_UNREADABLE
    if options.output:
        save_bytes(Path(options.output), data)
    else:
        sys.stdout.write(printable_lines(data.decode("utf-8")))
    return EXIT_LEGAL


def command_import(options: argparse.Namespace) -> int:
    """Read a list into a roster file, its form told from the file: a 40k list (the official app's
    text, New Recruit's text, BattleScribe .ros/.rosz) or Epic list text (as `export` writes it).
    Exit 0 written, 2 when it cannot be read or a line could not be placed, a unit the data has no
    datasheet for among them (nothing is written then)."""
    from .core.bounds import MAX_BYTES
    from .core.findings import LoadFailure, finding_text
    from .games import system_for
    from .report.safe import printable, printable_lines
    from .rosters.files import dump, save_text
    from .rosters.lists import read_bounded, read_list_data

    catalog = _catalog_of(options)
    if catalog is None:
        return EXIT_UNREADABLE
    try:  # at most one byte past the limit: the readers then refuse it without holding it all
        data = sys.stdin.buffer.read(MAX_BYTES + 1) if options.text == "-" else read_bounded(Path(options.text),
                                                                                             options.text)
        if _is_yaml_roster(data):
            print(f"{options.text}: this is already a roster file; check or edit it directly: `listbuilder check "
                  f"{options.text}`, `listbuilder edit {options.text}`", file=sys.stderr)
            return EXIT_UNREADABLE
        imported = read_list_data(data, options.text, catalog, fallback=True)
    except UnicodeDecodeError as error:
        print(f"{options.text}: cannot read the file: {error}", file=sys.stderr)
        return EXIT_UNREADABLE
    except LoadFailure as failure:
        for finding in failure.findings:
            print(printable(finding_text(finding)), file=sys.stderr)
        print(f"{options.text}: not imported; nothing was written", file=sys.stderr)
        return EXIT_UNREADABLE
    for finding in imported.findings:
        print(printable(finding_text(finding)), file=sys.stderr)
    unknown = _unknown_units(imported, catalog) if imported.roster is not None else []
    for finding in unknown:
        print(printable(finding_text(finding)), file=sys.stderr)
    if imported.roster is None or unknown or any(f.severity == "error" for f in imported.findings):
        print(f"{options.text}: not imported; nothing was written", file=sys.stderr)
        return EXIT_UNREADABLE
    field = system_for(imported.roster.game).entries_field
    made = (f"{len(getattr(imported.roster, field))} {field} imported"
            + (f" from {imported.form}" if imported.form else ""))
    yaml_text = dump(imported.roster)
    if options.output:
        save_text(Path(options.output), yaml_text)
        print(printable(f"{options.output}: {made}"), file=sys.stderr)
    else:  # the YAML writer escapes control characters, not bidi overrides: those are shown as \uXXXX text
        sys.stdout.write(printable_lines(yaml_text))
    return EXIT_LEGAL


def _unknown_units(imported: Any, catalog: Catalog) -> list[Any]:
    """The units of an imported list that name no datasheet of the data, and its want of a
    detachment: what `import` cannot place, so it writes nothing (the check of the list names them
    as well), located at their lines, as the list's check words them."""
    from .games import validate

    return [imported.as_listed(f.located(imported.locate(f.path))) for f in validate(imported.roster, catalog).findings
            if f.code in ("unknown-unit", "no-detachment")]


def _is_yaml_roster(data: bytes) -> bool:
    """Whether the bytes given to `import` are a roster file already: a YAML mapping naming its `game:`."""
    from .core.findings import LoadFailure
    from .data.yamlfile import parse

    try:
        document = parse(data.decode("utf-8"), "")
    except (LoadFailure, UnicodeDecodeError):
        return False
    return isinstance(document.data, dict) and "game" in document.data


def command_diff(options: argparse.Namespace) -> int:
    """What changed between two versions of a roster: exit 0 the same, 1 changed, 2 unreadable."""
    from .report.diff import diff_lines
    from .report.safe import printable

    catalog = _catalog_of(options)
    if catalog is None:
        return EXIT_UNREADABLE
    old, new = (_checked_roster(path, catalog) for path in (options.old, options.new))
    if old is None or new is None:
        return EXIT_UNREADABLE
    lines = diff_lines(options.old, old, options.new, new, catalog)
    same = f"{options.old} and {options.new} are the same roster"
    print("\n".join(map(printable, lines)) if lines else printable(same))
    return EXIT_ILLEGAL if lines else EXIT_LEGAL


def command_reprice(options: argparse.Namespace) -> int:
    """A roster's points under another version of the imported data, as a report; with -o, the roster
    written stamped with that version. Exit 0 legal under it, 1 illegal, 2 unreadable or no such version."""
    from .core.findings import LoadFailure
    from .data.catalog import data_label, with_data
    from .report.reprice import reprice_text
    from .report.safe import printable, printable_lines
    from .report.text import failure_text
    from .rosters.files import dump, read_roster, save_text
    from .rosters.lists import is_list

    catalog = _catalog()
    if catalog is None:
        return EXIT_UNREADABLE
    try:
        new_label = data_label(options.data)
        new_catalog = with_data(catalog, options.data)
    except LoadFailure as failure:
        print("--data: " + failure_text(failure.findings), file=sys.stderr)
        return EXIT_UNREADABLE
    old = _checked_roster(options.roster, catalog)
    if old is None:
        return EXIT_UNREADABLE
    if "data" not in type(old.roster).model_fields:
        print(printable(f"{options.roster}: only rosters of data you import (Warhammer 40,000) have versions to "
                        "reprice under"), file=sys.stderr)
        return EXIT_UNREADABLE
    stamped = old.roster.data
    try:  # priced first under the version the roster says it was priced under, where it is installed
        old_label = data_label(stamped) if stamped else data_label()
        old = _checked_roster(options.roster, with_data(catalog, stamped)) if stamped else old
    except LoadFailure:
        old_label = data_label()
        print(printable(f"{options.roster}: its data '{stamped}' is not installed; compared with the default "
                        f"'{old_label}'"), file=sys.stderr)
    new = _checked_roster(options.roster, new_catalog)
    if old is None or new is None:
        return EXIT_UNREADABLE
    print(printable_lines(reprice_text(options.roster, old, new, old_label, new_label)))
    if options.output:
        path = Path(options.roster)
        document = None if is_list(path) else read_roster(path, catalog, options.roster, round_trip=True).document
        save_text(Path(options.output), dump(new.roster.model_copy(update={"data": new_label}), document))
        print(printable(f"{options.output}: the roster, stamped data: {new_label}"), file=sys.stderr)
    return EXIT_LEGAL if new.valid else EXIT_ILLEGAL


def command_print(options: argparse.Namespace) -> int:
    """Write the printable roster: exit 0 legal, 1 illegal (printed with its findings), 2 unreadable."""
    from .core.findings import LoadFailure
    from .core.names import plural
    from .report.pdf import roster_pdf  # reportlab is loaded only to print
    from .report.safe import printable
    from .report.text import failure_text
    from .rosters.batch import check_file
    from .rosters.files import save_bytes

    catalog = _catalog_of(options)
    if catalog is None:
        return EXIT_UNREADABLE
    path = Path(options.roster)
    try:
        result = check_file(path, catalog, options.roster)
    except LoadFailure as failure:
        print(printable(f"{options.roster}: UNREADABLE") + "\n" + failure_text(failure.findings), file=sys.stderr)
        return EXIT_UNREADABLE
    output = Path(options.output) if options.output else path.with_suffix(".pdf")
    try:
        save_bytes(output, roster_pdf(result, catalog, options.paper, options.roster))
    except OSError as error:
        print(printable(f"{output}: cannot write the PDF: {error.strerror or error}"), file=sys.stderr)
        return EXIT_UNREADABLE
    errors = sum(1 for f in result.findings if f.severity == "error")
    print(printable(f"{output}: ")
          + ("legal roster" if result.valid else f"ILLEGAL roster, {plural(errors, 'error')} printed on page 1"))
    return EXIT_LEGAL if result.valid else EXIT_ILLEGAL


def command_armies(options: argparse.Namespace) -> int:
    from .games import PACKS, suggest_game, system_for, unknown_game

    catalog = _catalog_of(options)
    if catalog is None:
        return EXIT_UNREADABLE
    listed = {game: system_for(game).armies for game in PACKS if system_for(game).armies is not None}
    games = [options.game] if options.game else sorted({*catalog.games, *listed})
    for game in games:
        if game in listed:
            print("\n".join(listed[game](catalog)))
            continue
        if game not in catalog.games:
            hint = suggest_game(catalog, game)
            print(unknown_game(catalog, game) + (f" ({hint})" if hint else ""), file=sys.stderr)
            return EXIT_UNREADABLE
        print(f"{catalog.games[game].name} ({game})")
        for army_id in catalog.army_ids(game):
            army = catalog.lists[game][army_id]
            print(f"  {army_id:<24} {army.name} — section {army.section}, strategy {army.strategy_rating}, "
                  f"{len(army.formations)} formations")
    return EXIT_LEGAL


def command_schema(options: argparse.Namespace) -> int:
    from .schemas import schemas, write_schemas

    if options.write:
        from .report.safe import printable

        try:
            written = write_schemas(Path(options.write))
        except OSError as error:
            where = error.filename or options.write
            print(printable(f"{where}: cannot write the schemas there: {error.strerror or error}; give a folder you "
                            f"can write to (it is made if missing)"), file=sys.stderr)
            return EXIT_UNREADABLE
        for path in written:
            print(path)
    else:
        print(json.dumps(schemas(), indent=2))
    return EXIT_LEGAL


def command_edit(options: argparse.Namespace) -> int:
    from .tui import run_editor  # textual is imported only when the editor runs

    catalog = _catalog_of(options)
    return EXIT_UNREADABLE if catalog is None else run_editor(catalog, Path(options.roster) if options.roster else None)


def command_new(options: argparse.Namespace) -> int:
    from .tui import run_editor

    catalog = _catalog_of(options)
    if catalog is None:
        return EXIT_UNREADABLE
    return run_editor(catalog, Path(options.roster) if options.roster else None, new=True, game=options.game,
                      army=options.army, points=options.points)


def _positive(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        number = 0
    if not 0 < number <= 999_999_999:
        raise argparse.ArgumentTypeError(f"a whole number of points above 0, not {text!r}")
    return number


EXIT_CODES = """exit codes: 0 every roster legal; 1 a roster is illegal; 2 a file could not be read or
understood (its file:line:col is given), bad arguments, or the output was closed; 3 an internal
error (a bug: the file it happened on is named; please report it). A folder's other files are
still checked and reported."""


DATA_HELP = ("the version of the imported data (40k) to use: a label or revision `listbuilder data list` shows "
             "(default: the default version)")


def _edit_command(commands: argparse._SubParsersAction) -> None:
    edit_help = ("open a roster in the editor (a list another tool wrote, as `check` reads it, is saved to a new "
                 ".yaml beside it)")
    edit = commands.add_parser("edit", help=edit_help, description=edit_help)
    edit.add_argument("roster", help="the roster file (.yaml), or a list: .txt, .ros, .rosz")
    edit.add_argument("--data", metavar="LABEL", help=DATA_HELP)
    edit.set_defaults(run=command_edit)


def _new_command(commands: argparse._SubParsersAction) -> None:
    new = commands.add_parser("new", help="start a roster in the editor")
    new.add_argument("roster", nargs="?", help="the file to save it to (must not exist yet)")
    new.add_argument("--game", help="game id: epic-armageddon, epic-remastered or wh40k-10e (asked for when missing)")
    new.add_argument("--army", help="army list id or name, e.g. codex-astartes; 40k: the faction, e.g. Necrons "
                     "(asked for when missing)")
    new.add_argument("--points", type=_positive, help="the agreed points limit (asked for when missing; optional in "
                     "Epic Remastered); 40k: the battle size's, 1000, 2000 (default) or 3000")
    new.add_argument("--data", metavar="LABEL", help=DATA_HELP)
    new.set_defaults(run=command_new)


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """argparse's, looking up the terminal's width only when it formats text: argparse makes one for
    every argument added, to check its metavar, and the look-up imports shutil (6 M of a check)."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, width=0)
        del self._width, self._max_help_position  # worked out by `__getattr__` when first read

    def __getattr__(self, name: str) -> Any:
        if name not in ("_width", "_max_help_position"):
            raise AttributeError(name)
        own = argparse.RawDescriptionHelpFormatter(self._prog)  # the terminal's width, as argparse sets it
        self._width, self._max_help_position = own._width, own._max_help_position
        return getattr(self, name)


def _check_command(commands: argparse._SubParsersAction) -> None:
    check = commands.add_parser("check", help="check rosters against their army lists", epilog=EXIT_CODES,
                                  formatter_class=_Formatter)
    check.add_argument("rosters", nargs="*", help="roster files or folders of them (default: the demo roster)")
    check.add_argument("--format", choices=["text", "json", "csv", "html"], default="text",
                       help="text (default), json, csv (one row per roster) or html (one page, printable)")
    check.add_argument("--event", metavar="YAML", help=(
        "the event's rules: name, game, points, armies (40k: detachments, legends, incursion_limits, max_per_keyword)"))
    check.add_argument("--points", type=_positive, help=(
        "the event's points limit (a roster's own limit must match it; 40k: the battle size that holds it, the "
        "army's total capped at it)"))
    check.add_argument("--game", help="the game every roster must be for")
    check.add_argument("--army", action="append", metavar="ARMY", help="an army list allowed (repeat for more)")
    check.add_argument("--jobs", type=_positive, metavar="N", help="processes for large folders (default: every core)")
    check.add_argument("--data", metavar="LABEL", help=DATA_HELP)
    check.set_defaults(run=command_check)


def _stats_command(commands: argparse._SubParsersAction) -> None:
    stats_help = ("what the field plays: lists per army and detachment, datasheets (formations) taken, points by "
                  "category")
    stats = commands.add_parser("stats", help=stats_help, description=stats_help + ", each list's size")
    stats.add_argument("rosters", nargs="+", help="roster files or folders of them (any game, as `check` reads them)")
    stats.add_argument("--format", choices=["text", "json", "csv", "html"], default="text",
                       help="text (default), json, csv (one table, a column says which) or html (one page, with bars)")
    stats.add_argument("--event", metavar="YAML", help="the event's rules: its file is left out of the folder")
    stats.add_argument("--jobs", type=_positive, metavar="N", help="processes for large folders (default: every core)")
    stats.add_argument("--data", metavar="LABEL", help=DATA_HELP)
    stats.set_defaults(run=command_stats, points=None, game=None, army=None)


def _pack_command(commands: argparse._SubParsersAction) -> None:
    pack_help = "write the event pack: every list of a folder in one layout, a contents page first, as PDF or HTML"
    pack = commands.add_parser("pack", help=pack_help, description=pack_help + "; each list's verdict and findings "
                               "with it", epilog="exit codes: 0 every list legal; 1 a list is illegal; 2 a file could "
                               "not be read (its page says why), a folder holds no roster or the pack cannot be "
                               "written")
    pack.add_argument("rosters", nargs="+", help="roster files or folders of them (any game, as `check` reads them)")
    pack.add_argument("-o", "--output", metavar="FILE", required=True, help="the pack to write (.pdf or .html)")
    pack.add_argument("--format", choices=["pdf", "html"], help="pdf or html (default: told by the output's suffix, "
                      "else pdf)")
    pack.add_argument("--order", choices=["file", "player", "faction"], default="file",
                      help="; ".join(f"{o}: {h}" for o, h in zip(["file (default)", "player", "faction"], ORDER_HELP)))
    pack.add_argument("--anonymise", action="store_true", help="name each list 'List 1', 'List 2'... instead of its "
                      "file's and roster's names, everywhere in the pack")
    pack.add_argument("--event", metavar="YAML", help="the event's rules: name, game, points, armies")
    pack.add_argument("--paper", choices=["a4", "letter"], default="a4", help="the page size: a4 (default) or letter")
    pack.add_argument("--data", metavar="LABEL", help=DATA_HELP)
    pack.set_defaults(run=command_pack, points=None, game=None, army=None)


def _export_command(commands: argparse._SubParsersAction) -> None:
    export = commands.add_parser("export", help="write a roster as the list text players post")
    export.add_argument("roster", help="the roster file")
    export.add_argument("--format", choices=["text", "markdown", "ros", "rosz"], default="text",
                        help="text (default): the list as players post it; markdown: the same with headings, bold and "
                        "bullets, for forums and Discord; ros, rosz (40k): a BattleScribe roster that BattleScribe and "
                        "New Recruit open (rosz: zipped, needs -o)")
    export.add_argument("-o", "--output", metavar="FILE", help="where to write it (default: standard output)")
    export.add_argument("--data", metavar="LABEL", help=DATA_HELP)
    export.set_defaults(run=command_export)


def _import_command(commands: argparse._SubParsersAction) -> None:
    importing = commands.add_parser("import", help="read a list into a roster file: Epic list text (as `export` "
                                    "writes it); 40k: the official app's text, New Recruit's text, BattleScribe "
                                    ".ros/.rosz")
    importing.add_argument("text", help="the list file ('-' for standard input)")
    importing.add_argument("-o", "--output", metavar="ROSTER", help="the roster file to write (default: standard "
                                                                    "output)")
    importing.add_argument("--data", metavar="LABEL", help=DATA_HELP)
    importing.set_defaults(run=command_import)


def _diff_command(commands: argparse._SubParsersAction) -> None:
    diff = commands.add_parser("diff", help="what changed between two versions of a roster",
                               epilog="exit codes: 0 the same roster; 1 the rosters differ (what changed is "
                               "printed); 2 a file could not be read or understood")
    diff.add_argument("old", help="the earlier roster file")
    diff.add_argument("new", help="the later roster file")
    diff.add_argument("--data", metavar="LABEL", help=DATA_HELP)
    diff.set_defaults(run=command_diff)


def _reprice_command(commands: argparse._SubParsersAction) -> None:
    reprice = commands.add_parser("reprice", help="a 40k roster's points under another version of the imported "
                                  "data, and what it no longer allows", epilog="exit codes: 0 legal under that "
                                  "version; 1 illegal; 2 the roster cannot be read or no version is called that")
    reprice.add_argument("roster", help="the roster file (or a list another tool wrote)")
    reprice.add_argument("--data", metavar="LABEL", required=True, help="the version to price it under: a label or "
                         "revision `listbuilder data list` shows")
    reprice.add_argument("-o", "--output", metavar="ROSTER", help="also write the roster here, stamped with that "
                         "version (default: the roster is left as it is)")
    reprice.set_defaults(run=command_reprice)


def _print_command(commands: argparse._SubParsersAction) -> None:
    printing = commands.add_parser("print", help="write a roster as a PDF: roster, findings, datasheets, glossary")
    printing.add_argument("roster", help="the roster file")
    printing.add_argument("-o", "--output", metavar="PDF", help="where to write it (default: the roster's name, .pdf)")
    printing.add_argument("--paper", choices=["a4", "letter"], default="a4", help="the page size: a4 (default) or "
                          "letter (US)")
    printing.add_argument("--data", metavar="LABEL", help=DATA_HELP)
    printing.set_defaults(run=command_print)


def _armies_command(commands: argparse._SubParsersAction) -> None:
    armies_help = "list the army lists that can be built (40k: the installed factions and their detachments)"
    armies = commands.add_parser("armies", help=armies_help, description=armies_help)
    armies.add_argument("game", nargs="?", help="only this game: epic-armageddon, epic-remastered or wh40k-10e "
                        "(default: every game)")
    armies.add_argument("--data", metavar="LABEL", help=DATA_HELP)
    armies.set_defaults(run=command_armies)


def _schema_command(commands: argparse._SubParsersAction) -> None:
    schema = commands.add_parser("schema", help="print the JSON Schemas of list, datasheet and roster files")
    schema.add_argument("--write", metavar="DIR", help="write one file per schema into DIR")
    schema.set_defaults(run=command_schema)


COMMANDS: dict[str, Callable[[argparse._SubParsersAction], None]] = {
    "edit": _edit_command,
    "new": _new_command,
    "check": _check_command,
    "stats": _stats_command,
    "pack": _pack_command,
    "export": _export_command,
    "import": _import_command,
    "diff": _diff_command,
    "reprice": _reprice_command,
    "print": _print_command,
    "armies": _armies_command,
    "schema": _schema_command,
    "data": add_data_commands,
}  # in the order `--help` lists them


def parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The command line's parser, for the arguments `argv`: when they begin with a command's name,
    that command alone has its parser built (building every one's cost a check 30 M instructions,
    docs/speed.md), and usage names every command all the same."""
    top = argparse.ArgumentParser(prog="listbuilder", description="Build and check tabletop army lists.",
                                  epilog=EXIT_CODES, formatter_class=_Formatter)
    top.add_argument("--version", action="version", version=f"listbuilder {__version__}")
    if argv and argv[0] in COMMANDS:
        commands = top.add_subparsers(dest="command", metavar="{" + ",".join(COMMANDS) + "}")
        COMMANDS[argv[0]](commands)
    else:
        commands = top.add_subparsers(dest="command")
        for add in COMMANDS.values():
            add(commands)
    return top


class _ClosedOutput(io.TextIOBase):
    """Standard output when the shell closed it (`>&-`): a write says it cannot be done, so that a
    command writing its report fails as on a full disk, and one writing only files still works."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


class _Output:
    """Standard output, keeping what made a write fail (closed, a full disk): a run's OSError is the
    output's only then. The stream itself drops what it could not write, so no later flush tells."""

    def __init__(self, stream: TextIO | None):
        self.stream: TextIO = stream if stream is not None else cast(TextIO, _ClosedOutput())
        self.lost: OSError | None = None
        self.escape: Callable[[str], str] | None = None  # what the report's form says a character it cannot hold is

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text if self.escape is None or text.isascii() else self.escape(text))
        except OSError as error:
            self.lost = error
            raise

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        try:
            self.stream.flush()
        except OSError as error:
            self.lost = error
            raise

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


class _Errors:
    """Standard error with what a file or argument put in a message made safe (an escape sequence in
    a file name would otherwise reach the terminal, as on stdout), and a write that fails (a full
    disk, a closed pipe) dropped: a message lost must not turn a verdict into an internal error. The
    progress bar writes its own control sequences to `unescaped`."""

    def __init__(self, stream: TextIO):
        self.unescaped = stream

    def write(self, text: str) -> int:
        from .report.safe import printable_lines

        with contextlib.suppress(OSError, ValueError):
            self.unescaped.write(printable_lines(text))
        return len(text)

    def flush(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.unescaped.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.unescaped, name)


def _json_escape(text: str) -> str:
    """JSON as ensure_ascii writes it: outside its strings JSON is ASCII, so every other character is
    in a string, where `\\uXXXX` (a surrogate pair beyond the BMP) means the same."""
    return "".join(char if char.isascii() else _utf16_escape(ord(char)) for char in text)


def _utf16_escape(code: int) -> str:
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def _html_escape(text: str) -> str:
    """The page in ASCII, each other character a reference: the same text whatever the page's bytes are read as."""
    return text.encode("ascii", "xmlcharrefreplace").decode("ascii")


def _fit_encoding(options: argparse.Namespace, output: _Output) -> None:
    """Standard output in an encoding other than UTF-8 (a Windows redirect, `PYTHONIOENCODING=ascii`)
    gets what it cannot hold as escapes, the verdict unchanged: a JSON report is written as
    ensure_ascii does and an HTML one with character references (both then ASCII, with the same
    meaning); text and CSV with Python's backslash escapes."""
    encoding = getattr(output.stream, "encoding", None) or "utf-8"
    with contextlib.suppress(LookupError):
        if codecs.lookup(encoding).name == "utf-8":
            return
    form = getattr(options, "format", None) if getattr(options, "command", None) in ("check", "stats") else None
    output.escape = {"json": _json_escape, "html": _html_escape}.get(form or "")
    reconfigure = getattr(output.stream, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors="backslashreplace")


def _end_at_once(options: argparse.Namespace) -> bool:
    """Whether the process may end now, its output written and flushed, without the interpreter's
    exit: that frees every module and object one by one and runs the garbage collector again, some
    4% of a 40k check's instructions (docs/speed.md). `check` leaves nothing for the exit to
    do (no exit handler, file left open or temporary folder), unless a folder was checked on a
    process pool (its exit handlers) or a thread still runs."""
    threading = sys.modules.get("threading")
    return (options.command == "check" and "multiprocessing" not in sys.modules
            and (threading is None or threading.active_count() == 1))


def _usable_standard_streams() -> None:
    """A closed standard descriptor (`>&-`, `2>&-`) is held by /dev/null: no file the run opens (the
    cache, a worker's pipe) takes its number. A closed stderr's messages are dropped: Python leaves
    it None, and print(file=None) would write them into the report on stdout."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 -- the process's, till it exits


PLUGIN_LOADER = "pydantic.plugin._loader"  # pydantic's private module that looks for plugins
NO_PLUGINS = ("__all__", "1", "true")  # PYDANTIC_DISABLE_PLUGINS's values by which that module finds none


def run() -> int:
    """`listbuilder` as a process: the console script and `python -m listbuilder`. Pydantic's
    plugins are not looked for (unless the environment says which): listbuilder uses none, and
    looking reads every installed package's metadata when the first model is built (docs/speed.md)."""
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    _without_plugin_loader()
    return main(process=True)


def _without_plugin_loader() -> None:
    """Where the environment disables every pydantic plugin, pydantic's loader of them (a private
    module) is replaced by one that finds none, as the real one would: importing the real one imports
    `importlib.metadata`, and with it email, zipfile and csv (−42 M of a 40k check, docs/speed.md).
    tests/test_cli_imports.py fails if pydantic's loader or its use changes so that this is wrong or
    no longer saves anything."""
    if os.environ.get("PYDANTIC_DISABLE_PLUGINS") in NO_PLUGINS and PLUGIN_LOADER not in sys.modules:
        loader = types.ModuleType(PLUGIN_LOADER, "pydantic's plugins, all disabled: none is looked for")
        loader.get_plugins = tuple  # type: ignore[attr-defined]  # no plugin: ()
        sys.modules[PLUGIN_LOADER] = loader


def main(argv: Sequence[str] | None = None, process: bool = False) -> int:
    """The command `argv` (default: the process's arguments) run; its exit code. `process`: this
    is the whole process, which a command that leaves nothing to tidy then ends (`_end_at_once`)."""
    _usable_standard_streams()
    given, output = sys.stdout, _Output(sys.stdout)
    given_errors, errors = sys.stderr, _Errors(sys.stderr)
    sys.stdout, sys.stderr = cast(TextIO, output), cast(TextIO, errors)
    try:
        return _main(argv, output, process)
    finally:
        if sys.stdout is output:
            sys.stdout = given
        if sys.stderr is errors:
            sys.stderr = given_errors


def _main(argv: Sequence[str] | None, output: _Output, process: bool) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    options = parser(arguments).parse_args(arguments)
    if options.command is None:
        # The editor on the demo roster; without a terminal (a pipe, a test run) the demo is checked.
        if sys.stdin.isatty() and sys.stdout.isatty():  # every option `edit` has, at its default
            options = parser(["edit"]).parse_args(["edit", ""])
            options.roster = None
        else:
            options = parser(["check"]).parse_args(["check"])
    _fit_encoding(options, output)
    try:
        code: int = options.run(options)
        sys.stdout.flush()  # a full disk shows here: a short report waits in the buffer until now
        if process and _end_at_once(options):
            sys.stderr.flush()
            os._exit(code)
        return code
    except BrokenPipeError:  # `listbuilder check ... | head`: the reader has all it wanted
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        return EXIT_UNREADABLE
    except KeyboardInterrupt:
        return 130
    except Exception as error:
        from .report.safe import printable

        if error is output.lost:  # the report was not (all) written: as for a file that cannot be read
            with contextlib.suppress(OSError, ValueError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), output.stream.fileno())  # no second error at exit
            with contextlib.suppress(OSError, ValueError):
                print(f"listbuilder: cannot write to standard output: {error.strerror or error}", file=sys.stderr)
            return EXIT_UNREADABLE
        where = (getattr(options, "roster", None) or ", ".join(getattr(options, "rosters", None) or [])
                 or options.command)
        print(printable(f"listbuilder: internal error ({where}): {type(error).__name__}: {error}; please report it"),
              file=sys.stderr)
        return EXIT_INTERNAL

if __name__ == "__main__":
    sys.exit(run())
