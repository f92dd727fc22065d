"""A newcomer's first hour: `armies wh40k-10e` lists the installed factions and their detachments
(the BSData snapshot of ../shared, skipped without it), or says how to import them; every 'unknown
game' message names every game, with the one likely meant."""

from listbuilder.cli import main


def test_armies_of_40k_lists_the_installed_factions_and_detachments(bsdata, tmp_path, monkeypatch, capsys):
    from listbuilder.games.wh40k10.importing.installed import install

    monkeypatch.setenv("LISTBUILDER_DATA_DIR", str(tmp_path))
    install(bsdata.catalog, bsdata.left_out)
    assert main(["armies", "wh40k-10e"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Warhammer 40,000 10th edition (wh40k-10e), data {bsdata.catalog.data_revision}\n")
    necrons = next(f for f in bsdata.catalog.factions if f.short_name == "Necrons")
    assert f"  Necrons                  {necrons.name} — {len(necrons.units)} units\n" in out
    assert f"      detachments: {', '.join(d.name for d in necrons.detachments)}\n" in out
    assert "Awakened Dynasty" in out and "unknown game" not in out


def test_armies_of_40k_without_data_says_how_to_import(capsys):
    assert main(["armies", "wh40k-10e"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Warhammer 40,000 10th edition (wh40k-10e)\n")
    assert "no wh40k-10e data is installed" in out and "listbuilder data import bsdata PATH" in out


def test_armies_lists_every_game(capsys):
    assert main(["armies"]) == 0
    out = capsys.readouterr().out
    assert all(game in out for game in ("(epic-armageddon)", "(epic-remastered)", "(wh40k-10e)"))


def test_unknown_game_messages_name_every_game(tmp_path, capsys):
    every = "(known: epic-armageddon, epic-remastered, wh40k-10e)"
    assert main(["armies", "warhammer-40k"]) == 2
    assert capsys.readouterr().err == f"unknown game 'warhammer-40k' {every} (did you mean 'wh40k-10e'?)\n"
    roster = tmp_path / "r.yaml"
    roster.write_text("game: epic-armageddon\narmy: codex-astartes\npoints: 3000\n")
    assert main(["check", "--game", "40k", str(roster)]) == 2
    assert f"--game: error: unknown game '40k' {every} (did you mean 'wh40k-10e'?)" in capsys.readouterr().err
