import os
import pickle
import shutil
import tarfile
from contextlib import contextmanager
from pathlib import Path

import pytest
from filelock import FileLock

from listbuilder.data.catalog import load_catalog
from listbuilder.games.wh40k10.importing.bsdata import import_folder
from listbuilder.games.wh40k10.importing.installed import compile_folder
from listbuilder.rosters.batch import check_file

ROOT = Path(__file__).resolve().parent.parent
ROSTERS = Path(__file__).resolve().parent / "rosters"
SHARED = ROOT.parent / "shared"
SEEDS = SHARED / "seeds"
BSDATA_SNAPSHOT = SHARED / "fixtures" / "bsdata" / "wh40k-10e-801555b.tar.xz"
XDG_FOLDERS = {"XDG_CACHE_HOME": ".cache", "XDG_DATA_HOME": ".local/share", "XDG_CONFIG_HOME": ".config"}


@pytest.fixture(autouse=True)
def own_home(tmp_path_factory, monkeypatch):
    """Each test, and every process it starts, has an empty home and XDG folders of its own: none
    reads or writes the user's cache, data or settings. Not under tmp_path, which tests list."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    for variable, folder in XDG_FOLDERS.items():
        monkeypatch.setenv(variable, str(home / folder))
    monkeypatch.delenv("LISTBUILDER_DATA_DIR", raising=False)
    return home


@pytest.fixture(scope="session")
def catalog():
    return load_catalog(use_cache=False)


@pytest.fixture(scope="session")
def check(catalog):
    """Read a roster file under tests/rosters and validate it, findings located."""

    return lambda relative: check_file(ROSTERS / relative, catalog, relative)


def once_per_run(tmp_path_factory, name: str, make):
    """What `make()` returns, made once per test run: the suite runs on several processes
    (pytest-xdist), and the first to get here makes it and saves it where the others read it
    (xdist's documented way to share a session fixture). Test data only: pickle is fine here."""
    base = tmp_path_factory.getbasetemp()  # a worker's is within the run's, which is common to them all
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    saved = shared / f"{name}.pickle"
    with FileLock(f"{saved}.lock"):
        if saved.is_file():
            return pickle.loads(saved.read_bytes())
        made = make(shared)
        saved.write_bytes(pickle.dumps(made))
        return made


@pytest.fixture(scope="session")
def bsdata_folder(tmp_path_factory):
    """The BSData snapshot of ../shared, unpacked once per run (skipped where ../shared is absent)."""
    if not BSDATA_SNAPSHOT.is_file():
        pytest.skip(f"{BSDATA_SNAPSHOT} is missing")

    def unpack(shared: Path) -> Path:
        with tarfile.open(BSDATA_SNAPSHOT) as archive:
            archive.extractall(shared / "bsdata", filter="data")
        return shared / "bsdata" / "wh40k-10e"

    return once_per_run(tmp_path_factory, "bsdata-folder", unpack)


@pytest.fixture(scope="session")
def bsdata_bundle(bsdata_folder, tmp_path_factory):
    """The snapshot compiled for the BattleScribe engine once per run (compile_data's bundle)."""
    return once_per_run(tmp_path_factory, "bsdata-bundle", lambda _: compile_folder(bsdata_folder))


@contextmanager
def data_dir_set(folder: Path):
    """LISTBUILDER_DATA_DIR set to `folder` for the block (a session fixture cannot monkeypatch)."""
    from listbuilder.games.wh40k10.importing.installed import DATA_DIR_VARIABLE

    before = os.environ.get(DATA_DIR_VARIABLE)
    os.environ[DATA_DIR_VARIABLE] = str(folder)
    try:
        yield
    finally:
        if before is None:
            del os.environ[DATA_DIR_VARIABLE]
        else:
            os.environ[DATA_DIR_VARIABLE] = before


@pytest.fixture(scope="session")
def bsdata_installed_once(bsdata, bsdata_bundle, tmp_path_factory):
    """A data folder with the snapshot installed as `data import` installs it, made once per run:
    installing writes ~50 MB (0.5 s of CPU), which copying it does not cost."""
    from listbuilder.games.wh40k10.importing.installed import install

    def make(shared: Path) -> Path:
        with data_dir_set(shared / "installed-data"):
            install(bsdata.catalog, bsdata.left_out, bsdata_bundle)
        return shared / "installed-data"

    return once_per_run(tmp_path_factory, "bsdata-installed", make)


@pytest.fixture
def bsdata_installed(bsdata_installed_once, bsdata_bundle, tmp_path, monkeypatch):
    """The snapshot installed in a data folder of this test's own, as `data import` installs it (the
    catalog and the engine's data): a copy of the run's, the test's to change; the engine's bundle."""
    shutil.copytree(bsdata_installed_once, tmp_path / "data")
    monkeypatch.setenv("LISTBUILDER_DATA_DIR", str(tmp_path / "data"))
    return bsdata_bundle


@pytest.fixture(scope="session")
def bsdata(bsdata_folder, bsdata_bundle, tmp_path_factory):
    """The whole snapshot imported once per run: an ImportResult, its catalog with the engine's
    data of each faction, as `data import bsdata` installs them."""
    result = once_per_run(tmp_path_factory, "bsdata-import", lambda _: import_folder(bsdata_folder, revision="801555b"))
    result.catalog.with_engine(engine_of(bsdata_bundle, "801555b"))
    return result


def engine_of(bundle, revision):
    """Each faction's EngineData from a compiled bundle, built once (the installed store's in memory)."""
    from functools import cache

    from listbuilder.battlescribe.importing import faction_catalogues
    from listbuilder.games.wh40k10.catalog import EngineData

    names = {c["id"]: c["name"] for c in bundle["catalogues"]}

    @cache
    def engine(faction_id):
        if faction_id not in names:
            return None
        return EngineData(bundle["gameSystem"], faction_catalogues(bundle, names[faction_id]), bundle["sources"],
                          revision)

    return engine


# Why a test skips when ../shared, or a part of it, is absent; the seed's reason does not name it.
SHARED_REASONS = (str(SHARED), "../shared", "the seed is not beside the project")
BATTLESCRIBE_CONFTEST = ROOT / "tests" / "battlescribe" / "conftest.py"


def skipped_for_shared(reports, leave_out: str | None = None) -> int:
    """How many skipped tests wanted ../shared, leaving out those whose node id starts with `leave_out`."""
    return sum(1 for report in reports if isinstance(report.longrepr, (tuple, list))
               and any(reason in report.longrepr[2] for reason in SHARED_REASONS)
               and not (leave_out and report.nodeid.startswith(leave_out)))


def pytest_terminal_summary(terminalreporter, config) -> None:
    # tests/battlescribe/conftest.py says why its specs skipped where it is loaded: not on xdist's
    # controller, which collects nothing, when the run starts above its folder
    theirs = config.pluginmanager.has_plugin(str(BATTLESCRIBE_CONFTEST))
    skipped = skipped_for_shared(terminalreporter.stats.get("skipped", []), "tests/battlescribe/" if theirs else None)
    if skipped:
        why = "is absent (../shared not checked out)" if not SHARED.is_dir() else "lacks the fixtures they read"
        terminalreporter.write_line(f"shared fixtures: {skipped} tests skipped, {SHARED} {why}")


def pytest_xdist_auto_num_workers(config):
    """`-n auto`: one worker more than there are cores (at most 4, as `--maxprocesses` says): many
    tests wait on a subprocess or the editor's driver, and a spare worker fills that time (measured
    on 2 cores: 186 s with 2 workers, 164 s with 3)."""
    return min(4, (os.cpu_count() or 1) + 1)


# The two versions of the data `data diff` and `reprice` are tested on: the snapshot's Space Marines
# and the catalogues they read (an import of all 46 costs ~12 s; these 7, ~1.3 s), then the same with
# the points changed by hand (tests/test_data_versions.py works out what follows from each change).
VERSION_FILES = ("Warhammer 40,000.gst", "Imperium - Space Marines.cat", "Imperium - Agents of the Imperium.cat",
                 "Library - Titans.cat", "Imperium - Imperial Knights - Library.cat",
                 "Library - Astartes Heresy Legends.cat", "Unaligned Forces.cat")
REPRICED = (  # (the entry's id, its text as in the snapshot, as changed): each found once after the id
    ("8da0-4570-c3c-819f", 'typeId="51b2-306e-1021-d207" value="80"/>', 'typeId="51b2-306e-1021-d207" value="85"/>'),
    ("8da0-4570-c3c-819f", '<modifier type="set" value="160" field="51b2-306e-1021-d207">',
     '<modifier type="set" value="170" field="51b2-306e-1021-d207">'),  # Intercessor Squad: 5 models 85, 6-10 170
    ("e57e-d55a-be75-2205", 'typeId="51b2-306e-1021-d207" value="10"/>', 'typeId="51b2-306e-1021-d207" value="20"/>'),
    # Artificer Armour, an Enhancement of the Gladius Task Force: 20
    ("be1a-7188-94e5-3cfe", '<entryLink import="true" name="Bladeguard Veteran Squad" hidden="false" '
     'type="selectionEntry" id="be1a-7188-94e5-3cfe" targetId="7044-bf1-f949-c32d"/>', ""),  # no longer offered
)
VERSION_LABELS = ("MFM old", "MFM new")


def _repriced(text: str) -> str:
    for entry, old, new in REPRICED:
        start = text.index(f'id="{entry}"')
        start = text.rindex("<", 0, start)  # the element the id is of
        at = text.index(old, start)
        text = text[:at] + new + text[at + len(old):]
    return text


@pytest.fixture(scope="session")
def bsdata_versions(bsdata_folder, tmp_path_factory):
    """A data folder holding two versions of the Space Marines' data, imported as `data import`
    does: 'MFM old' (the snapshot, revision 801555b) and 'MFM new' (the default, revision
    801555b-repriced, REPRICED applied). Shared by the run: tests copy it to change it."""
    from listbuilder.games.wh40k10.importing.installed import install

    def make(shared: Path) -> Path:
        data = shared / "versions-data"
        with data_dir_set(data):
            for label, revision, change in ((VERSION_LABELS[0], "801555b", str), (VERSION_LABELS[1], "801555b-repriced",
                                                                                   _repriced)):
                folder = shared / f"versions-{revision}"
                folder.mkdir()
                for name in VERSION_FILES:
                    text = (bsdata_folder / name).read_text(encoding="utf-8")
                    (folder / name).write_text(change(text) if name == VERSION_FILES[1] else text, encoding="utf-8")
                result = import_folder(folder, revision=revision)
                install(result.catalog, result.left_out, compile_folder(folder), label)
        return data

    return once_per_run(tmp_path_factory, "bsdata-versions", make)
