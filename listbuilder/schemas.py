"""The JSON Schemas of the files people write: army lists, datasheets, game settings, rosters (Epic's and
Warhammer 40,000's), events."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .listengine.armylist import ArmyList, GameSettings
from .listengine.datasheet import DatasheetFile
from .core.event import Event
from .listengine.roster import Roster
from .games.epic_remastered import models as epic_remastered
from .games.wh40k10.roster import Wh40kRoster

MODELS = {"army-list": ArmyList, "datasheets": DatasheetFile, "game": GameSettings, "roster": Roster,
          "wh40k-roster": Wh40kRoster, "epic-remastered-list": epic_remastered.ArmyList,
          "epic-remastered-datasheets": epic_remastered.DatasheetFile, "epic-remastered-roster": epic_remastered.ErRoster,
          "event": Event}


def schemas() -> dict[str, Any]:
    return {name: model.model_json_schema() for name, model in MODELS.items()}


def schema_text(name: str) -> str:
    return json.dumps(MODELS[name].model_json_schema(), indent=2, ensure_ascii=False) + "\n"


def write_schemas(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name in MODELS:
        path = folder / f"{name}.schema.json"
        path.write_text(schema_text(name), encoding="utf-8")
        written.append(path)
    return written
