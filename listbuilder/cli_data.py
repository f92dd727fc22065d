"""`listbuilder data`: import the user's BSData catalogues, list what is installed, fetch a release."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from .exits import EXIT_OK, EXIT_UNREADABLE
from .games import DATA_SOURCES

SHOWN_WARNINGS = 10


def _import_and_install(folder: Path, revision: str | None, verbose: bool) -> int:
    from .battlescribe.importing import UnreadableFile
    from .games.wh40k10.importing.bsdata import ImportResult, git_revision, import_folder
    from .games.wh40k10.importing.installed import compile_folder, install
    from .report.text import failure_text

    started = time.perf_counter()
    result: ImportResult = import_folder(folder, revision or git_revision(folder))
    if result.errors or result.catalog is None:
        print(failure_text(result.errors), file=sys.stderr)
        print(f"nothing installed: {len(result.errors)} file(s) of {folder} could not be read", file=sys.stderr)
        return EXIT_UNREADABLE
    try:
        engine = compile_folder(folder)
    except UnreadableFile as unreadable:  # the importer read what it could; the engine needs every file whole
        engine = None
        print(f"the data's own rules will not be checked: {unreadable}", file=sys.stderr)
    seconds = time.perf_counter() - started
    catalog = result.catalog
    where = install(catalog, result.left_out, engine)
    print(f"Imported {catalog.summary.catalogues} catalogues of {catalog.system.name} ({catalog.data_revision}) "
          f"in {seconds:.1f} s: {len(catalog.factions)} factions, {len(catalog.units)} units.")
    print(f"Installed {catalog.game} in {where.path}")
    if result.left_out:
        print("Left out rather than guessed:")
        for kind, count in sorted(result.left_out.items(), key=lambda item: -item[1]):
            print(f"  {count:6d}  {kind}")
    warnings = [f for f in result.findings if f.severity == "warning"]
    if warnings:
        shown = warnings if verbose else warnings[:SHOWN_WARNINGS]
        print(f"{len(warnings)} warnings" + ("" if verbose or len(warnings) <= SHOWN_WARNINGS
                                            else f" (the first {SHOWN_WARNINGS}; --verbose shows all)") + ":")
        print(failure_text(shown))
    return EXIT_OK


def command_import(options: argparse.Namespace) -> int:
    folder = Path(options.path)
    if not folder.is_dir():
        print(f"{folder}: not a folder; point at your copy of the BSData repository "
              "(the folder with the .gst and .cat files)", file=sys.stderr)
        return EXIT_UNREADABLE
    return _import_and_install(folder, options.revision, options.verbose)


def command_list(options: argparse.Namespace) -> int:
    from .games.wh40k10.importing.installed import TRANSPORTS_UNREAD, installed

    found = installed()
    if not found:
        print("No game data installed. Import your BSData copy: listbuilder data import bsdata PATH")
    for item in found:
        transports = item.left_out.get(TRANSPORTS_UNREAD, 0)
        left_out = sum(item.left_out.values()) - transports
        unread = f", {transports} transport texts not read whole" if transports else ""
        print(f"{item.game}  {item.data_revision}  imported {item.imported}: {item.factions} factions, "
              f"{item.units} units, {left_out} data rules left out{unread}  ({item.path})")
    return EXIT_OK


def command_fetch(options: argparse.Namespace) -> int:
    from .core.findings import LoadFailure
    from .games.wh40k10.importing import fetch
    from .report.text import failure_text

    try:
        folder, tag = fetch.fetch_latest(options.game, fetch.GITHUB_API)
    except LoadFailure as failure:
        print(failure_text(failure.findings), file=sys.stderr)
        return EXIT_UNREADABLE
    print(f"Downloaded {options.game} release {tag} into {folder}")
    return _import_and_install(folder, f"release {tag}", options.verbose)


def add_data_commands(commands: argparse._SubParsersAction) -> None:
    data = commands.add_parser("data", help="game data you bring: import BSData catalogues, list, fetch")
    actions = data.add_subparsers(dest="data_command", required=True)
    importing = actions.add_parser("import", help="import data from a folder")
    sources = importing.add_subparsers(dest="source", required=True)
    bsdata = sources.add_parser("bsdata", help="a copy of the BSData repository (its .gst and .cat files)")
    bsdata.add_argument("path", help="the folder holding the .gst and .cat files")
    bsdata.add_argument("--revision", help="what to stamp the catalog with (default: the git commit, "
                                           "else the game system file's revision)")
    bsdata.add_argument("--verbose", action="store_true", help="show every warning")
    bsdata.set_defaults(run=command_import)
    listing = actions.add_parser("list", help="show the installed game data")
    listing.set_defaults(run=command_list)
    fetching = actions.add_parser("fetch", help="download a game's latest BSData release and import it (online)")
    fetching.add_argument("game", choices=sorted(DATA_SOURCES))
    fetching.add_argument("--verbose", action="store_true", help="show every warning")
    fetching.set_defaults(run=command_fetch)
