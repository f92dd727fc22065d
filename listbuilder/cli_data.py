"""`listbuilder data`: import the user's BSData catalogues as versions side by side, list them, pick
the default, say what changed between two, fetch a release."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from .exits import EXIT_OK, EXIT_UNREADABLE
from .games import DATA_SOURCES

SHOWN_WARNINGS = 10
GAME = "wh40k-10e"  # the one game whose data is imported, so far


def _import_and_install(folder: Path, revision: str | None, verbose: bool, label: str | None = None) -> int:
    from .battlescribe.importing import UnreadableFile
    from .games.wh40k10.importing.bsdata import ImportResult, git_revision, import_folder
    from .games.wh40k10.importing.installed import compile_folder, install, versions
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
    earlier = versions(catalog.game)
    where = install(catalog, result.left_out, engine, label)
    replaced = [v.label for v in earlier if v.data_revision == where.data_revision or v.label == where.label]
    print(f"Imported {catalog.summary.catalogues} catalogues of {catalog.system.name} ({catalog.data_revision}) "
          f"in {seconds:.1f} s: {len(catalog.factions)} factions, {len(catalog.units)} units.")
    print(f"Installed {catalog.game} as '{where.label}', the default data from now on, in {where.path}"
          + "".join(f" (replacing '{label}')" for label in replaced))
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
    return _import_and_install(folder, options.revision, options.verbose, options.label)


def command_list(options: argparse.Namespace) -> int:
    from .games.wh40k10.importing.installed import TRANSPORTS_UNREAD, installed

    found = installed()
    if not found:
        print("No game data installed. Import your BSData copy: listbuilder data import bsdata PATH")
    for item in found:
        transports = item.left_out.get(TRANSPORTS_UNREAD, 0)
        left_out = sum(item.left_out.values()) - transports
        unread = f", {transports} transport texts not read whole" if transports else ""
        print(f"{'*' if item.default else ' '} {item.game}  '{item.label}'  {item.data_revision}  imported "
              f"{item.imported}: {item.factions} factions, {item.units} units, {left_out} data rules left "
              f"out{unread}  ({item.path})")
        if item.imported_earlier:
            print("    imported by an earlier listbuilder, which read some of the data differently (other factions' "
                  "detachments, the keywords of a unit's models): import it again, listbuilder data import bsdata PATH")
    if len(found) > 1:
        print("* the default, which every command uses unless --data LABEL (or an event's data:) names another")
    return EXIT_OK


def command_use(options: argparse.Namespace) -> int:
    from .core.findings import LoadFailure
    from .games.wh40k10.importing.installed import use
    from .report.text import failure_text

    try:
        version = use(options.game, options.label)
    except LoadFailure as failure:
        print(failure_text(failure.findings), file=sys.stderr)
        return EXIT_UNREADABLE
    print(f"{version.game}: '{version.label}' ({version.data_revision}) is the default data from now on")
    return EXIT_OK


def command_diff(options: argparse.Namespace) -> int:
    """What changed between two versions of the data: exit 0 (whether or not anything did), 2 when
    a version or the faction is unknown."""
    from .core.findings import LoadFailure
    from .games.wh40k10.data_diff import data_diff, diff_json, diff_text
    from .games.wh40k10.importing.installed import find_version, load_installed
    from .report.safe import printable_lines
    from .report.text import failure_text

    try:
        old, new = (find_version(options.game, label) for label in (options.old, options.new))
        diff = data_diff(*(load_installed(options.game, options.faction, version.label) for version in (old, new)),
                         options.faction)
    except LoadFailure as failure:
        print(failure_text(failure.findings), file=sys.stderr)
        return EXIT_UNREADABLE
    if options.format == "json":
        print(json.dumps(diff_json(diff, old.label, new.label), indent=2, ensure_ascii=False))
    else:
        print(printable_lines(diff_text(diff, old.label, new.label)))
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
    bsdata.add_argument("--label", help="what to call this version, e.g. 'MFM 3.5' (default: its revision and the "
                                        "day imported); earlier imports are kept beside it, but one of the same "
                                        "revision or label, which it replaces")
    bsdata.add_argument("--verbose", action="store_true", help="show every warning")
    bsdata.set_defaults(run=command_import)
    listing = actions.add_parser("list", help="show the versions of game data installed, the default marked")
    listing.set_defaults(run=command_list)
    using = actions.add_parser("use", help="make an installed version the default every command uses")
    using.add_argument("label", help="its label or revision, as `data list` shows it")
    using.set_defaults(run=command_use, game=GAME)
    diff = actions.add_parser("diff", help="what changed between two installed versions: points per size, sizes, "
                              "datasheets, detachments, Enhancements")
    diff.add_argument("old", help="the earlier version's label or revision (`data list` shows them)")
    diff.add_argument("new", help="the later version's label or revision")
    diff.add_argument("--faction", help="only this faction (a catalogue's name or its Faction keyword)")
    diff.add_argument("--format", choices=["text", "json"], default="text", help="text (default) or json")
    diff.set_defaults(run=command_diff, game=GAME)
    fetching = actions.add_parser("fetch", help="download a game's latest BSData release and import it (online)")
    fetching.add_argument("game", choices=sorted(DATA_SOURCES))
    fetching.add_argument("--verbose", action="store_true", help="show every warning")
    fetching.set_defaults(run=command_fetch)
