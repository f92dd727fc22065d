"""The `listbuilder` command: the editor (edit, new; a bare `listbuilder` opens it on the demo
roster), check, print, armies, schema."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from .cli_data import add_data_commands

if TYPE_CHECKING:
    from .core.catalog import Catalog
    from .core.findings import LoadFailure

# Only argparse and the command table load at start (`--help` stays instant); each command imports
# what it runs: the engine and models, ruamel, reportlab, textual (tests/test_cli_imports.py).

DEMO_ROSTER = Path(__file__).parent / "demo" / "ultramarines.yaml"
EXIT_LEGAL, EXIT_ILLEGAL, EXIT_UNREADABLE, EXIT_INTERNAL = 0, 1, 2, 3


def _roster_paths(arguments: list[str]) -> list[Path]:
    """Files named, and the .yaml/.yml files of folders named (an organiser's inbox)."""
    paths: list[Path] = []
    for argument in arguments:
        path = Path(argument)
        try:
            if path.is_dir():
                paths += sorted(p for p in path.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())
                continue
        except OSError:
            pass  # a folder that cannot be listed is reported unreadable, like a file
        paths.append(path)
    return paths


def _internal_error(error: BaseException, shown: str) -> LoadFailure:
    """An exception nobody expected, reported against the file being checked (exit 3)."""
    from .core.findings import Finding, LoadFailure, Location

    return LoadFailure([Finding("internal-error", f"internal error while checking this file: {type(error).__name__}: "
                                f"{error} (please report it, with the file)", location=Location(shown))])


def _catalog() -> Catalog | None:
    """The game data, or None (and the reason on stderr) when it is broken."""
    from .core.findings import LoadFailure
    from .data.catalog import load_catalog
    from .report.text import failure_text

    try:
        return load_catalog()
    except LoadFailure as failure:
        print("the bundled game data is broken:\n" + failure_text(failure.findings), file=sys.stderr)
        return None


def _check_file(path: Path, catalog: Catalog, shown: str) -> Any:
    """Read and validate one roster, its findings located in the file. Raises LoadFailure."""
    from .rosters.files import locate_all, read_roster
    from .systems import validate

    roster_file = read_roster(path, catalog, shown)
    result = validate(roster_file.roster, catalog)
    result.findings = locate_all(roster_file, result.findings)
    return result


def command_check(options: argparse.Namespace) -> int:
    from .core.findings import LoadFailure
    from .report.safe import printable, printable_lines
    from .report.summary import finding_json
    from .report.text import failure_text, roster_text
    from .systems import summarise

    catalog = _catalog()
    if catalog is None:
        return EXIT_UNREADABLE
    paths = _roster_paths(options.rosters) if options.rosters else [DEMO_ROSTER]
    reports, texts, worst = [], [], EXIT_LEGAL
    for path in paths:
        shown = str(path) if options.rosters else "demo/ultramarines.yaml"
        try:
            result = _check_file(path, catalog, shown)
        except Exception as error:  # one bad file never hides the report of the others
            failure = error if isinstance(error, LoadFailure) else _internal_error(error, shown)
            internal = failure is not error
            worst = max(worst, EXIT_INTERNAL if internal else EXIT_UNREADABLE)
            reports.append({"file": shown, "valid": False, "readable": False,
                            **({"internal_error": True} if internal else {}),
                            "issues": [finding_json(f) for f in failure.findings]})
            texts.append(printable(f"{shown}: {'INTERNAL ERROR' if internal else 'UNREADABLE'}") + "\n"
                         + "\n".join("  " + line for line in failure_text(failure.findings).splitlines()))
            continue
        if not result.valid:
            worst = max(worst, EXIT_ILLEGAL)
        reports.append({"file": shown, "readable": True, **summarise(result).json})
        texts.append(roster_text(shown, result))
    if options.format == "json":
        print(printable_lines(json.dumps({"rosters": reports}, indent=2, ensure_ascii=False)))
    else:
        print("\n\n".join(texts))
        if len(paths) > 1:
            legal = sum(1 for r in reports if r["valid"])
            print(f"\n{legal} of {len(paths)} rosters legal")
    return worst


def command_print(options: argparse.Namespace) -> int:
    """Write the printable roster: exit 0 legal, 1 illegal (printed with its findings), 2 unreadable."""
    from .core.findings import LoadFailure
    from .report.pdf import roster_pdf  # reportlab is loaded only to print
    from .report.safe import printable
    from .report.text import failure_text
    from .rosters.files import save_bytes

    catalog = _catalog()
    if catalog is None:
        return EXIT_UNREADABLE
    path = Path(options.roster)
    try:
        result = _check_file(path, catalog, options.roster)
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
    print(printable(f"{output}: ") + ("legal roster" if result.valid else f"ILLEGAL roster, {errors} error(s) printed on page 1"))
    return EXIT_LEGAL if result.valid else EXIT_ILLEGAL


def command_armies(options: argparse.Namespace) -> int:
    from .systems import SYSTEMS

    catalog = _catalog()
    if catalog is None:
        return EXIT_UNREADABLE
    listed = {game: system.armies for game, system in SYSTEMS.items() if system.armies is not None}
    games = [options.game] if options.game else sorted({*catalog.games, *listed})
    for game in games:
        if game in listed:
            print("\n".join(listed[game](catalog)))
            continue
        if game not in catalog.games:
            print(f"unknown game '{game}' (known: {', '.join(sorted(catalog.games))})", file=sys.stderr)
            return EXIT_UNREADABLE
        print(f"{catalog.games[game].name} ({game})")
        for army_id in catalog.army_ids(game):
            army = catalog.lists[game][army_id]
            print(f"  {army_id:<24} {army.name} — section {army.section}, strategy {army.strategy_rating}, "
                  f"{len(army.formations)} formations")
    return EXIT_LEGAL


def command_schema(options: argparse.Namespace) -> int:
    from .schemas import write_schemas, schemas

    if options.write:
        for path in write_schemas(Path(options.write)):
            print(path)
    else:
        print(json.dumps(schemas(), indent=2))
    return EXIT_LEGAL


def command_edit(options: argparse.Namespace) -> int:
    from .tui import run_editor  # textual is imported only when the editor runs

    catalog = _catalog()
    return EXIT_UNREADABLE if catalog is None else run_editor(catalog, Path(options.roster) if options.roster else None)


def command_new(options: argparse.Namespace) -> int:
    from .tui import run_editor

    catalog = _catalog()
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


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="listbuilder", description="Build and check tabletop army lists.",
                                  epilog=EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = top.add_subparsers(dest="command")
    edit = commands.add_parser("edit", help="open a roster in the editor")
    edit.add_argument("roster", help="the roster file")
    edit.set_defaults(run=command_edit)
    new = commands.add_parser("new", help="start a roster in the editor")
    new.add_argument("roster", nargs="?", help="the file to save it to (must not exist yet)")
    new.add_argument("--game", help="game id, e.g. epic-armageddon (asked for when missing)")
    new.add_argument("--army", help="army list id or name, e.g. codex-astartes (asked for when missing)")
    new.add_argument("--points", type=_positive, help="the agreed points limit (asked for when missing)")
    new.set_defaults(run=command_new)
    check = commands.add_parser("check", help="check rosters against their army lists", epilog=EXIT_CODES,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    check.add_argument("rosters", nargs="*", help="roster files or folders of them (default: the demo roster)")
    check.add_argument("--format", choices=["text", "json"], default="text")
    check.set_defaults(run=command_check)
    printing = commands.add_parser("print", help="write a roster as a PDF: roster, findings, datasheets, glossary")
    printing.add_argument("roster", help="the roster file")
    printing.add_argument("-o", "--output", metavar="PDF", help="where to write it (default: the roster's name, .pdf)")
    printing.add_argument("--paper", choices=["a4", "letter"], default="a4")
    printing.set_defaults(run=command_print)
    armies = commands.add_parser("armies", help="list the army lists that can be built")
    armies.add_argument("game", nargs="?")
    armies.set_defaults(run=command_armies)
    schema = commands.add_parser("schema", help="print the JSON Schemas of list, datasheet and roster files")
    schema.add_argument("--write", metavar="DIR", help="write one file per schema into DIR")
    schema.set_defaults(run=command_schema)
    add_data_commands(commands)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    options = parser().parse_args(argv)
    if options.command is None:
        # The editor on the demo roster; without a terminal (a pipe, a test run) the demo is checked.
        if sys.stdin.isatty() and sys.stdout.isatty():
            options = argparse.Namespace(roster=None, run=command_edit)
        else:
            options = parser().parse_args(["check"])
    try:
        return options.run(options)
    except BrokenPipeError:  # `listbuilder check ... | head`: the reader has all it wanted
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        except (OSError, ValueError):
            pass
        return EXIT_UNREADABLE
    except KeyboardInterrupt:
        return 130
    except Exception as error:
        from .report.safe import printable

        where = getattr(options, "roster", None) or ", ".join(getattr(options, "rosters", None) or []) or options.command
        print(printable(f"listbuilder: internal error ({where}): {type(error).__name__}: {error}; please report it"),
              file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
