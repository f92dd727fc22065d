"""The JSON Schemas of the files people write: army lists, datasheets, game settings, rosters (Epic's and
Warhammer 40,000's), events."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from .core.event import Event
from .games import every_system

# Each game's files (its system's `schemas`), then the event file every game's organisers write.
MODELS: dict[str, type[BaseModel]] = {**{name: model for system in every_system()
                                         for name, model in system.schemas.items()},
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
