"""Standard error is as safe as standard output (cli.py `_Errors`): a control sequence from a file
name or an argument is escaped, and a message that cannot be written (a full disk) is dropped
without changing the exit code."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from listbuilder.cli import main

ESCAPE = "\x1b]0;pwned\x07"


def test_an_unknown_game_with_an_escape_is_escaped_on_stderr(capsys):
    assert main(["armies", f"x{ESCAPE}"]) != 0
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err
    assert "unknown game 'x\\u001b]0;pwned\\u0007'" in err


def test_an_empty_folder_whose_name_has_an_escape_is_escaped_on_stderr(tmp_path, capsys):
    folder = tmp_path / f"sent{ESCAPE}"
    folder.mkdir()
    main(["check", str(folder)])
    err = capsys.readouterr().err
    assert "\x1b" not in err
    assert "sent\\u001b]0;pwned\\u0007: no roster file" in err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_stderr_on_a_full_disk_keeps_the_exit_code():
    """`armies` of an unknown game: exit 2 with its message on stderr, here lost on /dev/full."""
    with open("/dev/full", "w") as full:
        run = subprocess.run([sys.executable, "-m", "listbuilder", "armies", "no-such-game"],
                             stdout=subprocess.DEVNULL, stderr=full, env={**os.environ}, timeout=60)
    assert run.returncode == 2
