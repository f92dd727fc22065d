"""`listbuilder --help` answers at once: the command table loads no heavy library; each command
imports what it runs. Structural, not timed: which modules a fresh interpreter has loaded."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("textual", "reportlab", "ruamel", "pydantic", "urllib.request")


def modules_loaded_by(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running `code`."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return set(json.loads(run.stdout.splitlines()[-1]))


def heavy_among(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


def test_importing_the_command_line_loads_no_heavy_library():
    loaded = modules_loaded_by("import listbuilder.cli")
    assert "listbuilder.cli" in loaded
    assert heavy_among(loaded) == []


def test_help_loads_no_heavy_library():
    loaded = modules_loaded_by("from listbuilder.cli import main\n"
                               "try:\n    main(['--help'])\nexcept SystemExit:\n    pass")
    assert "argparse" in loaded
    assert heavy_among(loaded) == []


def test_check_loads_neither_the_editor_nor_the_pdf_library():
    loaded = modules_loaded_by("from listbuilder.cli import main\nmain(['check'])")
    assert "listbuilder.listengine.engine" in loaded  # the probe did check the demo roster
    assert [m for m in heavy_among(loaded) if m.split(".")[0] in ("textual", "reportlab")] == []


@pytest.mark.parametrize("cache", ["cold", "warm"])
def test_checking_an_epic_armageddon_roster_loads_no_other_game(cache, own_home):
    """The 40k and Epic Remastered packs (and the user's data, lxml, the process pool) load only for
    their rosters, whether the check builds the game data's cache (its first run) or reads it."""
    roster = Path(__file__).parent / "rosters" / "codex-astartes" / "illegal-over-points.yaml"
    check = f"from listbuilder.cli import main\nmain(['check', {str(roster)!r}])"
    if cache == "warm":
        modules_loaded_by(check)
    assert bool(list((own_home / ".cache" / "listbuilder").glob("catalog-*.json"))) == (cache == "warm")
    loaded = modules_loaded_by(check)
    assert "listbuilder.listengine.engine" in loaded
    others = ("listbuilder.games.wh40k10", "listbuilder.games.epic_remastered",
              "listbuilder.games.wh40k10.importing.installed", "lxml", "multiprocessing")
    assert sorted(m for m in loaded if m.startswith(others)) == []


def test_each_pack_is_registered_under_its_own_game_id():
    from listbuilder.games import PACKS, system_for
    from listbuilder.games.epic_remastered import GAME_ID as EPIC_REMASTERED
    from listbuilder.games.wh40k10.catalog import GAME_ID as WH40K

    assert sorted(PACKS) == sorted([WH40K, EPIC_REMASTERED])
    assert system_for(WH40K).roster_model.__module__.startswith("listbuilder.games.wh40k10")
    assert system_for(EPIC_REMASTERED).roster_model.__module__.startswith("listbuilder.games.epic_remastered")


def test_the_start_up_is_frozen_out_of_the_garbage_collectors_sight_which_is_back_on_for_the_check():
    """cli._catalog: the models and the catalog a command loads are frozen (the collector no longer
    traces them, nor the little garbage among them); the collector is on again for the check, and
    finds little of its own to collect after it."""
    probe = ("import gc, json, sys\nfrom listbuilder.cli import main\nmain(['check'])\n"
             "print(json.dumps([gc.isenabled(), gc.get_freeze_count(), gc.collect()]))")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False)
    enabled, frozen, garbage_left = json.loads(run.stdout.splitlines()[-1])
    assert enabled and frozen > 10_000 and garbage_left < 1_000


def test_an_epic_event_loads_no_other_game(own_home):
    """An event's points and armies of Epic need no other game's rules: its pack is imported only for
    a key of its own or an army no list names."""
    roster = Path(__file__).parent / "rosters" / "codex-astartes" / "illegal-over-points.yaml"
    loaded = modules_loaded_by(f"from listbuilder.cli import main\nmain(['check', {str(roster)!r}, '--points', "
                               "'3000', '--army', 'codex-astartes'])")
    assert "listbuilder.rosters.events" in loaded
    others = ("listbuilder.games.wh40k10", "listbuilder.games.epic_remastered")
    assert sorted(m for m in loaded if m.startswith(others)) == []


# What a 40k roster file's check never calls: the list engine (Epic Armageddon's) and its models and
# data, the readers of other tools' lists, the exports, an event's rules, the new-roster dialog's records
NOT_FOR_A_40K_CHECK = ("listbuilder.listengine.engine", "listbuilder.listengine.system",
                       "listbuilder.listengine.armylist", "listbuilder.listengine.datasheet",
                       "listbuilder.listengine.shipped", "listbuilder.listengine.roster",
                       "listbuilder.games.epic_armageddon", "listbuilder.games.epic_remastered",
                       "listbuilder.games.wh40k10.importing.foreign", "listbuilder.games.wh40k10.lists",
                       "listbuilder.games.wh40k10.listtext", "listbuilder.games.wh40k10.new_recruit",
                       "listbuilder.games.wh40k10.battlescribe_roster", "listbuilder.games.wh40k10.event_rules",
                       "listbuilder.battlescribe.importing", "listbuilder.core.new_roster", "lxml", "multiprocessing")


@pytest.mark.parametrize("cache", ["cold", "warm"])
def test_checking_a_40k_roster_loads_only_what_its_check_uses(cache, bsdata_installed, own_home):
    """A 40k roster's check (docs/speed.md, the 40k engine) loads its muster rules, the BattleScribe
    engine and its faction's installed data, whether the shipped data's cache is built (by an Epic
    check) or not: never the shipped Epic Armageddon data, so it leaves the cache as it finds it."""
    roster = Path(__file__).parent / "wh40k-rosters" / "necrons" / "legal-awakened-dynasty.yaml"
    epic = Path(__file__).parent / "rosters" / "codex-astartes" / "illegal-over-points.yaml"
    if cache == "warm":
        modules_loaded_by(f"from listbuilder.cli import main\nmain(['check', {str(epic)!r}])")
    caches = own_home / ".cache" / "listbuilder"
    before = {path: path.read_bytes() for path in caches.glob("catalog-*.json")}
    assert bool(before) == (cache == "warm")
    loaded = modules_loaded_by(f"from listbuilder.cli import main\nmain(['check', {str(roster)!r}])")
    assert {"listbuilder.games.wh40k10.engine_roster", "listbuilder.games.wh40k10.summary"} <= loaded  # checked
    assert sorted(m for m in loaded if m.startswith(NOT_FOR_A_40K_CHECK)) == []
    assert {path: path.read_bytes() for path in caches.glob("catalog-*.json")} == before


def test_a_40k_check_whose_data_folder_is_given_imports_neither_platformdirs_nor_shutil(bsdata_installed, own_home,
                                                                                      monkeypatch):
    """docs/speed.md: platformdirs (which imports tempfile, and it shutil) is asked for the data folder
    only where LISTBUILDER_DATA_DIR gives none, and shutil is imported only to remove a folder or to
    format help: a check so configured imports none of them."""
    from listbuilder.games.wh40k10.importing.installed import DATA_DIR_VARIABLE, data_dir

    monkeypatch.setenv(DATA_DIR_VARIABLE, str(data_dir()))  # the folder platformdirs gives, named
    roster = Path(__file__).parent / "wh40k-rosters" / "necrons" / "legal-awakened-dynasty.yaml"
    check = subprocess.run([sys.executable, "-X", "importtime", "-m", "listbuilder", "check", str(roster)],
                           capture_output=True, text=True, check=False)
    assert check.returncode == 0
    imported = {line.split("|")[-1].strip() for line in check.stderr.splitlines() if line.startswith("import time:")}
    assert "listbuilder.games.wh40k10.engine_roster" in imported
    assert {"platformdirs", "tempfile", "shutil"} & imported == set()


def test_a_40k_check_builds_no_validator_of_the_installed_data(bsdata_installed):
    """docs/speed.md: the faction's part and the parts' index, as `install` wrote them, are read back
    without validating them: a check builds the validator of its roster alone, not the catalog's."""
    roster = Path(__file__).parent / "wh40k-rosters" / "necrons" / "legal-awakened-dynasty.yaml"
    probe = (f"from listbuilder.cli import main\nassert main(['check', {str(roster)!r}]) == 0\n"
             "from listbuilder.games.wh40k10.catalog import Faction, Unit, Wh40kCatalog\n"
             "from listbuilder.games.wh40k10.roster import Wh40kRoster\n"
             "print([m.__pydantic_complete__ for m in (Faction, Unit, Wh40kCatalog, Wh40kRoster)])")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert run.stdout.splitlines()[-1] == "[False, False, False, True]"


def test_pydantic_looks_for_plugins_through_the_one_function_the_command_line_replaces(monkeypatch):
    """cli._without_plugin_loader stands in for pydantic's private loader of plugins when every plugin
    is disabled: it is right only while pydantic uses nothing of that module but `get_plugins`, and the
    real one finds no plugin for each value the command line takes as disabling them all."""
    import pydantic
    from pydantic.plugin import _loader

    from listbuilder.cli import NO_PLUGINS, PLUGIN_LOADER

    assert _loader.__name__ == PLUGIN_LOADER
    package = Path(pydantic.__file__).parent
    uses = sorted((str(path.relative_to(package)), line.strip()) for path in package.rglob("*.py")
                  if path.name != "_loader.py" for line in path.read_text(encoding="utf-8").splitlines()
                  if "_loader" in line)
    assert uses == [("plugin/_schema_validator.py", "from ._loader import get_plugins")]
    for value in NO_PLUGINS:
        monkeypatch.setenv("PYDANTIC_DISABLE_PLUGINS", value)
        assert list(_loader.get_plugins()) == []


def test_a_check_as_a_process_builds_its_models_without_importing_package_metadata(bsdata_installed):
    """What the stand-in saves: pydantic's real loader imports importlib.metadata (and email, zipfile,
    csv) when the first model is built; a 40k check, which builds its roster's, imports none of them."""
    assert "importlib.metadata" in modules_loaded_by("import pydantic.plugin._loader")
    roster = Path(__file__).parent / "wh40k-rosters" / "necrons" / "legal-awakened-dynasty.yaml"
    check = subprocess.run([sys.executable, "-X", "importtime", "-m", "listbuilder", "check", str(roster)],
                           capture_output=True, text=True, check=False)
    assert check.returncode == 0
    imported = {line.split("|")[-1].strip() for line in check.stderr.splitlines() if line.startswith("import time:")}
    assert "pydantic.plugin._schema_validator" in imported  # a model was built: its plugins were asked for
    assert {"importlib.metadata", "email", "zipfile"} & imported == set()


@pytest.mark.parametrize("arguments", [["check", "a.yaml", "--format", "json", "--army", "x", "--army", "y"],
                                       ["data", "import", "bsdata", "folder", "--label", "L"], ["edit", "r.yaml"],
                                       ["new"], ["pack", "f", "-o", "p.pdf"], ["schema"]])
def test_the_parser_of_one_command_reads_its_arguments_as_the_whole_table_does(arguments):
    """cli.parser builds the parser of the command the arguments name alone: what it reads, and the
    usage it shows (which names every command), are the whole table's."""
    from listbuilder.cli import COMMANDS, parser

    one, every = parser(arguments), parser()
    assert len(one._subparsers._group_actions[0].choices) == 1 < len(COMMANDS)  # type: ignore[union-attr]
    assert one.parse_args(arguments) == every.parse_args(arguments)
    assert one.format_usage() == every.format_usage()


@pytest.mark.parametrize("columns", ["57", "150"])
def test_the_formatter_looks_up_the_terminal_s_width_as_argparse_does(columns, monkeypatch):
    """cli._Formatter defers argparse's look-up of the terminal's width (it imports shutil) until
    text is formatted: the width and help column it then takes are argparse's own."""
    import argparse

    from listbuilder.cli import _Formatter

    monkeypatch.setenv("COLUMNS", columns)
    deferred, own = _Formatter("listbuilder"), argparse.RawDescriptionHelpFormatter("listbuilder")
    assert "_width" not in vars(deferred)
    assert (deferred._max_help_position, deferred._width) == (own._max_help_position, own._width)
