"""The command line on a hostile environment: standard output or error closed, a full disk, an
output that is not UTF-8, a cache folder that cannot be written, file names that are not UTF-8.
None of them is an internal error (exit 3) nor a traceback: each in a fresh process, as a user runs it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .sampling import crossed

ROSTERS = Path(__file__).parent / "rosters"
ILLEGAL = ROSTERS / "codex-astartes" / "illegal-over-points.yaml"
HAS_DEV_FULL = Path("/dev/full").exists()
FORMS = ["text", "json", "csv", "html"]  # check's reports


def listbuilder(*arguments: str, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=None, **popen):
    """Run `listbuilder ARGUMENTS` as its own process; its output in bytes (None where closed)."""
    return subprocess.run([sys.executable, "-m", "listbuilder", *arguments], stdout=stdout, stderr=stderr,
                          env=env, check=False, **popen)


def closing(*fds: int):
    """A preexec_fn that closes these descriptors in the child: `>&-`, `2>&-`."""
    return lambda: [os.close(fd) for fd in fds]


def no_traceback(stderr: bytes | None) -> None:
    assert stderr is None or b"Traceback" not in stderr and b"internal error" not in stderr, stderr


# 1. standard output or error closed, or on a full disk


def test_closed_standard_output_is_exit_2_with_one_line_on_stderr():
    run = listbuilder("check", str(ILLEGAL), stdout=None, preexec_fn=closing(1))
    assert run.returncode == 2
    no_traceback(run.stderr)
    assert run.stderr.decode().count("\n") == 1 and "standard output" in run.stderr.decode()


def test_closed_standard_error_keeps_the_verdict_and_the_report():
    run = listbuilder("check", str(ILLEGAL), stderr=None, preexec_fn=closing(2))
    assert run.returncode == 1
    assert b"ILLEGAL" in run.stdout


def test_both_closed_is_exit_2_and_quiet():
    run = listbuilder("check", str(ILLEGAL), stdout=None, stderr=None, preexec_fn=closing(1, 2))
    assert run.returncode == 2


def test_closed_standard_error_does_not_send_messages_to_standard_output(tmp_path):
    """print(..., file=None) writes to stdout: a closed stderr's messages must not land in the report."""
    run = listbuilder("check", str(tmp_path), stderr=None, preexec_fn=closing(2))  # an empty folder: a message
    assert run.returncode == 2
    assert b"no roster file" not in run.stdout


@pytest.mark.skipif(not HAS_DEV_FULL, reason="needs /dev/full")
@pytest.mark.parametrize("arguments", [["check", str(ILLEGAL)], ["check"], ["check", "--format", "json", str(ILLEGAL)],
                                       ["schema"]])
def test_full_disk_on_standard_output_is_exit_2_with_one_line_on_stderr(arguments):
    with open("/dev/full", "wb") as full:
        run = listbuilder(*arguments, stdout=full)
    assert run.returncode == 2
    no_traceback(run.stderr)
    assert run.stderr.decode().count("\n") == 1 and "No space left" in run.stderr.decode(), run.stderr


def test_a_command_that_writes_nothing_on_standard_output_works_with_it_closed(tmp_path):
    run = listbuilder("export", str(ILLEGAL), "-o", str(tmp_path / "list.txt"), stdout=None, preexec_fn=closing(1))
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "list.txt").read_text()


# 2. standard output in an encoding other than UTF-8 (a Windows redirect, a C locale)

NAME = "Ультрамарины 東京 \U0001d54a café"


@pytest.fixture
def foreign(tmp_path):
    roster = tmp_path / "foreign.yaml"
    text = ILLEGAL.read_text(encoding="utf-8")
    roster.write_text(text.replace("name: Three heavy Tactical detachments", f'name: "{NAME}"'), encoding="utf-8")
    return roster


def encoded(encoding: str | None, *arguments: str):
    env = dict(os.environ)
    env.pop("PYTHONUTF8", None)
    if encoding:
        env["PYTHONIOENCODING"] = encoding
    return listbuilder(*arguments, env=env)


@pytest.mark.parametrize("form, encoding", crossed(FORMS, ["ascii", "cp1252"]))
def test_an_output_that_cannot_hold_a_name_keeps_the_verdict(encoding, form, foreign):
    run = encoded(encoding, "check", "--format", form, str(foreign))
    no_traceback(run.stderr)
    assert run.returncode == 1, run.stderr
    run.stdout.decode(encoding)  # whatever the encoding cannot hold was written as escapes


@pytest.mark.parametrize("encoding", ["ascii", "cp1252"])
def test_json_on_an_output_that_is_not_utf8_is_ascii_with_the_same_meaning(encoding, foreign):
    import json

    utf8 = json.loads(encoded("utf-8", "check", "--format", "json", str(foreign)).stdout.decode("utf-8"))
    run = encoded(encoding, "check", "--format", "json", str(foreign))
    assert json.loads(run.stdout.decode("ascii")) == utf8
    assert NAME in json.dumps(utf8, ensure_ascii=False)


@pytest.mark.parametrize("encoding", ["ascii", "cp1252"])
def test_html_on_an_output_that_is_not_utf8_is_ascii_with_the_same_text(encoding, foreign):
    import html

    page = encoded(encoding, "check", "--format", "html", str(foreign)).stdout.decode("ascii")
    assert '<meta charset="utf-8">' in page
    assert NAME in html.unescape(page)


def test_text_on_an_ascii_output_shows_escapes():
    run = encoded("ascii", "check")  # the demo roster: its report has a dash
    assert run.returncode == 0, run.stderr
    assert b"\\u2014" in run.stdout


# 3. a cache folder that cannot be written: the check runs uncached


@pytest.mark.parametrize("where", ["a file", "under a file", "its folder a file"])
def test_a_cache_that_cannot_be_written_runs_uncached(where, tmp_path):
    blocker = tmp_path / "blocker"
    blocker.write_text("not a folder")
    if where == "its folder a file":
        (tmp_path / "cache").mkdir()
        (tmp_path / "cache" / "listbuilder").write_text("not a folder")
    cache = {"a file": blocker, "under a file": blocker / "sub", "its folder a file": tmp_path / "cache"}[where]
    for _ in range(2):  # the second run finds no cache either
        run = listbuilder("check", str(ILLEGAL), env={**os.environ, "XDG_CACHE_HOME": str(cache)})
        no_traceback(run.stderr)
        assert run.returncode == 1, run.stderr
        assert b"ILLEGAL" in run.stdout
    assert blocker.read_text() == "not a folder"


@pytest.mark.parametrize("refused", [("write_bytes", "unlink"), ("unlink",)])
def test_a_cache_folder_that_refuses_writes_or_removals_is_left_as_it_is(refused, tmp_path, monkeypatch):
    """A read-only cache folder (root writes anywhere, so the refusals are the test's): the catalog
    is still loaded; an earlier version's file it cannot remove stays."""
    from listbuilder.data import catalog as catalog_module

    folder = tmp_path / "cache" / "listbuilder"
    folder.mkdir(parents=True)
    (folder / "catalog.json").write_text("an earlier version's")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))

    def refuse(self, *arguments, **keywords):
        raise PermissionError(13, "Permission denied", str(self))

    for method in refused:
        monkeypatch.setattr(Path, method, refuse)
    assert catalog_module.load_catalog().games
    assert (folder / "catalog.json").read_text() == "an earlier version's"


def test_a_relative_cache_home_is_ignored(tmp_path, own_home):
    """The XDG spec: a relative XDG_CACHE_HOME is invalid and ignored (no cache in the folder the user is in)."""
    run = listbuilder("check", str(ILLEGAL), env={**os.environ, "XDG_CACHE_HOME": "relative"}, cwd=tmp_path)
    assert run.returncode == 1, run.stderr
    assert list(tmp_path.iterdir()) == []
    assert list((own_home / ".cache" / "listbuilder").glob("catalog-*.json"))


def test_no_home_folder_runs_uncached(monkeypatch):
    """A service account: no XDG_CACHE_HOME and no home folder Python can find (Path.home() raises)."""
    from listbuilder.data import catalog as catalog_module

    def homeless(cls=None):
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setattr(Path, "home", classmethod(homeless))
    assert catalog_module.load_catalog().games


# 4. a folder holding a file name that is not UTF-8


@pytest.fixture
def latin1_named(tmp_path):
    """A folder of two rosters, one named in Latin-1 bytes (a name copied from an old Windows share)."""
    folder = tmp_path / "submissions"
    folder.mkdir()
    (folder / "plain.yaml").write_bytes(ILLEGAL.read_bytes())
    with open(os.fsencode(folder) + b"/caf\xe9.yaml", "wb") as named:
        named.write(ILLEGAL.read_bytes())
    return folder


@pytest.mark.parametrize("form, errors", crossed(FORMS, ["strict", "surrogateescape"]))  # a UTF-8, the C locale's
def test_a_file_name_that_is_not_utf8_is_shown_escaped_and_the_folder_checked(form, errors, latin1_named):
    env = {**os.environ, "PYTHONIOENCODING": f"utf-8:{errors}"}
    run = listbuilder("check", "--format", form, str(latin1_named), env=env)
    no_traceback(run.stderr)
    assert run.returncode == 1, run.stderr
    report = run.stdout.decode("utf-8")  # valid UTF-8: not the name's raw byte
    assert "caf\\udce9.yaml" in report
    assert "plain.yaml" in report
