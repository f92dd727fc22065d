"""A newcomer's first hour: `new --army` with a misspelt army or faction suggests the one meant
(the project's did_you_mean matching), never unrelated ones; 40k's needs the BSData snapshot of
../shared (skipped without it)."""

from listbuilder.cli import main
from listbuilder.data.catalog import load_catalog

EPIC_ARMIES = ("baran-siegemasters, biel-tan, black-legion, codex-astartes, feral-orks, ghazghkull-warhorde, "
               "lost-and-the-damned, speed-freeks, steel-legion, tau, ulthwe, white-scars")


def test_new_with_a_misspelt_epic_army_suggests_it(capsys):
    assert main(["new", "--game", "epic-armageddon", "--army", "codex-astartez"]) == 2
    assert capsys.readouterr().err == (f"unknown army 'codex-astartez' (known: {EPIC_ARMIES}) "
                                       "(did you mean 'codex-astartes'?)\n")
    assert main(["new", "--army", "Codex Astartez", "--points", "3000"]) == 2  # the one game whose lists are data
    assert "(did you mean 'codex-astartes'?)" in capsys.readouterr().err
    # a part that two lists' names share suggests both, not one at random
    assert main(["new", "--game", "epic-armageddon", "--army", "Space Marinez"]) == 2
    assert "(did you mean 'codex-astartes' or 'white-scars'?)" in capsys.readouterr().err


def test_new_with_a_misspelt_epic_remastered_army_suggests_it(capsys):
    assert main(["new", "--game", "epic-remastered", "--army", "core-sample"]) == 2
    assert capsys.readouterr().err == ("unknown army 'core-sample' (known: core-samples) "
                                       "(did you mean 'core-samples'?)\n")


def test_new_with_a_misspelt_40k_faction_suggests_it(bsdata, tmp_path, monkeypatch, capsys):
    from listbuilder.games import new_roster
    from listbuilder.games.wh40k10.importing.installed import install

    monkeypatch.setenv("LISTBUILDER_DATA_DIR", str(tmp_path))
    install(bsdata.catalog, bsdata.left_out)
    catalog = load_catalog(use_cache=False)
    assert new_roster(catalog, "wh40k-10e", "Necronz", None) == (
        "unknown or ambiguous faction 'Necronz': none is called that (did you mean 'Necrons'?)")
    message = new_roster(catalog, "wh40k-10e", "Space Marinez", None)
    assert message.startswith("unknown or ambiguous faction 'Space Marinez': none is called that (did you mean ")
    suggested = message.split("did you mean ", 1)[1].rstrip("?)").split(" or ")
    assert suggested and all("Space Marines" in name for name in suggested)  # nothing unrelated
    assert new_roster(catalog, "wh40k-10e", suggested[0].strip("'"), None).faction == suggested[0].strip("'")
    assert main(["new", "--game", "wh40k-10e", "--army", "xyzzy"]) == 2
    assert "`listbuilder armies wh40k-10e` lists them" in capsys.readouterr().err
