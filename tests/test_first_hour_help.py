"""A newcomer's first hour: `--help` says what `edit` opens, which games `armies` takes, what
`export --format` and `print --paper` choose, and `diff`'s exit codes."""

import pytest

from listbuilder.cli import main


def help_of(command, capsys):
    with pytest.raises(SystemExit) as exited:
        main([command, "--help"])
    assert exited.value.code == 0
    return " ".join(capsys.readouterr().out.split())  # argparse wraps to the terminal's width


def test_help_of_each_command_says_what_a_newcomer_asks(capsys):
    edit = help_of("edit", capsys)
    assert "the roster file (.yaml), or a list: .txt, .ros, .rosz" in edit
    armies = help_of("armies", capsys)
    assert "only this game: epic-armageddon, epic-remastered or wh40k-10e (default: every game)" in armies
    assert "40k: the installed factions and their detachments" in armies
    assert "markdown: the same with headings, bold and bullets" in help_of("export", capsys)
    assert "the page size: a4 (default) or letter (US)" in help_of("print", capsys)
    assert "exit codes: 0 the same roster; 1 the rosters differ" in help_of("diff", capsys)


def test_top_help_says_what_edit_opens(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "a list another tool wrote" in " ".join(capsys.readouterr().out.split())
