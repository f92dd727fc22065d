"""Warhammer 40,000 10th edition: the muster rules of seed 001 on the user's imported catalog."""

from ...core.system import GameSystem
from .roster import Wh40kRoster
from .rules import unknown_names, validate
from .listtext import app_text
from .summary import summary

SYSTEM = GameSystem(Wh40kRoster, unknown_names, validate, summary,
                    list_text=lambda result, catalog, markdown: app_text(result, markdown))
