"""A newcomer's first hour: `listbuilder --version`."""

import pytest

from listbuilder import __version__
from listbuilder.cli import main


def test_version(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out == f"listbuilder {__version__}\n"
