"""`listbuilder data`: import into the user data folder, list, load, fetch (a local stand-in for GitHub)."""

import io
import json
import threading
import zipfile
from functools import partial
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from listbuilder.cli import main
from listbuilder.core.findings import LoadFailure
from listbuilder.games.wh40k10.importing import fetch
from listbuilder.games.wh40k10.importing.installed import DATA_DIR_VARIABLE, catalog_path, load_installed, versions
from tests.bsdata_samples import GAME_SYSTEM, write_sample

BOMB = '<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY a "aaaa">]>\n<catalogue id="x" name="&a;"/>\n'


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    folder = tmp_path / "user-data"
    monkeypatch.setenv(DATA_DIR_VARIABLE, str(folder))
    return folder


def test_import_installs_a_catalog_that_check_can_load(tmp_path, capsys):
    assert main(["data", "import", "bsdata", str(write_sample(tmp_path / "bsdata")), "--revision", "abc123"]) == 0
    out = capsys.readouterr().out
    assert "Imported 1 catalogues of Test System (abc123)" in out and "1 factions, 3 units" in out
    catalog = load_installed("wh40k-10e")
    assert catalog.data_revision == "abc123"
    assert catalog.unit_named(catalog.faction("Testers"), "Test Squad").points_for(3) == 90
    assert load_installed("wh40k-10e") is catalog  # kept in memory while the file is unchanged
    assert main(["data", "list"]) == 0
    assert "wh40k-10e  'abc123 20" in capsys.readouterr().out  # labelled by its revision and import day
    assert main(["data", "import", "bsdata", str(tmp_path / "bsdata"), "--revision", "abc123", "--label", "v1"]) == 0
    assert load_installed("wh40k-10e").data_revision == "abc123"
    assert [v.label for v in versions("wh40k-10e")] == ["v1"]  # the same revision again replaces its version
    assert main(["data", "import", "bsdata", str(tmp_path / "bsdata"), "--revision", "def456"]) == 0
    assert load_installed("wh40k-10e").data_revision == "def456"  # the last import is the default
    assert load_installed("wh40k-10e", version="v1").data_revision == "abc123"  # the earlier kept beside it


def test_the_revision_of_a_git_clone_is_read_from_its_head(tmp_path, capsys):
    folder = write_sample(tmp_path / "clone")
    (folder / ".git" / "refs" / "heads").mkdir(parents=True)
    (folder / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (folder / ".git" / "refs" / "heads" / "main").write_text("801555b0123456789abcdef\n")
    assert main(["data", "import", "bsdata", str(folder)]) == 0
    assert load_installed().data_revision == "commit 801555b01234"


def test_a_hostile_catalogue_installs_nothing(tmp_path, capsys):
    assert main(["data", "import", "bsdata", str(write_sample(tmp_path / "bsdata", catalogue=BOMB))]) == 2
    err = capsys.readouterr().err
    assert "Test - Testers.cat:2: error:" in err and "nothing installed" in err
    assert not catalog_path("wh40k-10e").exists()


def test_nothing_installed_and_no_folder_are_clear_messages(tmp_path, capsys):
    assert main(["data", "list"]) == 0
    assert "No game data installed" in capsys.readouterr().out
    with pytest.raises(LoadFailure, match="no wh40k-10e data is installed"):
        load_installed("wh40k-10e")
    assert main(["data", "import", "bsdata", str(tmp_path / "missing")]) == 2
    assert "not a folder" in capsys.readouterr().err


def test_a_broken_installed_catalog_is_a_finding(data_dir):
    catalog_path("wh40k-10e").parent.mkdir(parents=True)
    catalog_path("wh40k-10e").write_text('{"game": "wh40k-10e"}')
    with pytest.raises(LoadFailure, match="does not validate"):
        load_installed("wh40k-10e")


def test_fetch_offline_fails_with_a_clear_message(monkeypatch, capsys):
    monkeypatch.setattr(fetch, "GITHUB_API", "http://127.0.0.1:9")  # nothing listens on the discard port
    assert main(["data", "fetch", "wh40k-10e"]) == 2
    err = capsys.readouterr().err
    assert "offline" in err and "listbuilder data import bsdata PATH" in err


class FakeGitHub(BaseHTTPRequestHandler):
    def __init__(self, archive, *args, **kwargs):
        self.archive = archive
        super().__init__(*args, **kwargs)

    def do_GET(self):
        host = f"http://127.0.0.1:{self.server.server_port}"
        if self.path == "/repos/BSData/wh40k-10e/releases/latest":
            body = json.dumps({"tag_name": "v10.1.0", "zipball_url": f"{host}/archive.zip"}).encode()
        elif self.path == "/archive.zip":
            body = self.archive
        else:
            self.send_error(404)
            return
        self.send_response(200)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_fetch_downloads_the_latest_release_and_imports_it(tmp_path, monkeypatch, capsys, data_dir):
    sample = write_sample(tmp_path / "release")
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as bundle:
        for path in sample.iterdir():
            bundle.write(path, f"BSData-wh40k-10e-801555b/{path.name}")
        bundle.writestr("BSData-wh40k-10e-801555b/README.md", "not a catalogue")
        bundle.writestr("../escape.cat", GAME_SYSTEM)  # a hostile name lands under its bare name
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(FakeGitHub, archive.getvalue()))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        monkeypatch.setattr(fetch, "GITHUB_API", f"http://127.0.0.1:{server.server_port}")
        assert main(["data", "fetch", "wh40k-10e"]) == 0
    finally:
        server.shutdown()
    out = capsys.readouterr().out
    assert "Downloaded wh40k-10e release v10.1.0" in out
    assert load_installed().data_revision == "release v10.1.0"
    folder = data_dir / "bsdata" / "wh40k-10e" / "v10.1.0"
    assert sorted(p.name for p in folder.iterdir()) == ["Test - Testers.cat", "Test.gst", "escape.cat"]
    assert not (tmp_path / "escape.cat").exists()
