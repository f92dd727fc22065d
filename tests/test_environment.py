"""The command line on a hostile environment: standard output or error closed, a full disk, an
output that is not UTF-8, a cache folder that cannot be written, file names that are not UTF-8.
None of them is an internal error (exit 3) nor a traceback: each in a fresh process, as a user runs it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROSTERS = Path(__file__).parent / "rosters"
ILLEGAL = ROSTERS / "codex-astartes" / "illegal-over-points.yaml"
HAS_DEV_FULL = Path("/dev/full").exists()


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
