"""The shipped data of the games whose army lists are data, as parsed and as the cache holds it."""

from __future__ import annotations

from dataclasses import dataclass, field

from .armylist import ArmyList, GameSettings
from .datasheet import Ability, DatasheetFile


@dataclass
class ShippedData:
    games: dict[str, GameSettings] = field(default_factory=dict)
    lists: dict[str, dict[str, ArmyList]] = field(default_factory=dict)  # game -> id -> list
    datasheets: dict[str, dict[str, DatasheetFile]] = field(default_factory=dict)  # game -> stem -> file
    abilities: dict[str, dict[str, Ability]] = field(default_factory=dict)  # game -> name key -> glossary entry
