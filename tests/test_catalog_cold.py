"""A catalog built cold for the cache is the one read back warm and the one parsed without it: the
packs (games with models of their own) are parsed on first use in each, never while building it;
the list-engine games' data is built (or read) when first looked into."""

from __future__ import annotations

import json
import subprocess
import sys

from listbuilder.data.catalog import load_catalog

ER = "epic-remastered"


def test_a_cold_catalog_leaves_the_packs_for_first_use_and_then_equals_the_whole_parse():
    whole = load_catalog(use_cache=False)  # not the session's, which other tests add to
    cold = load_catalog()
    assert cold.lists  # looked into: built cold, and cached
    warm = load_catalog()
    assert ER not in cold.packs and ER not in warm.packs
    cold.pack(ER), warm.pack(ER)
    assert cold == warm == whole
    assert cold.data_version == warm.data_version == whole.data_version


def test_building_the_cache_cold_imports_no_pack(own_home):
    probe = ("import json, sys\nfrom listbuilder.data.catalog import load_catalog\n"
             "load_catalog().lists['epic-armageddon']\nprint(json.dumps(sorted(sys.modules)))")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    loaded = set(json.loads(run.stdout.splitlines()[-1]))
    assert "listbuilder.listengine.armylist" in loaded  # the lists were parsed, with no game's own code
    assert sorted(m for m in loaded if m.startswith(("listbuilder.games.", "listbuilder.listengine.engine"))) == []
    assert list((own_home / ".cache" / "listbuilder").glob("catalog-*.json"))


def test_a_shipped_part_loads_only_when_one_of_its_games_is_looked_into():
    from listbuilder.listengine.catalog import ShippedPart

    loads = []

    def load() -> dict[str, int]:
        loads.append(1)
        return {"epic-armageddon": 1}

    part = ShippedPart(frozenset({"epic-armageddon"}), load)
    assert "wh40k-10e" not in part and part.get("wh40k-10e") is None and not loads
    assert "epic-armageddon" in part and part["epic-armageddon"] == 1 and list(part) == ["epic-armageddon"]
    assert loads  # (each look asks `load`: the data layer's loader keeps what it loaded the first time)


def test_a_catalog_not_yet_looked_into_pickles_for_a_folders_spawned_workers():
    import pickle

    copy = pickle.loads(pickle.dumps(load_catalog()))
    copy.pack(ER)
    assert copy == load_catalog(use_cache=False)
