"""The PDF of a Warhammer 40,000 roster: every game's document, with the rules the army plays by
(its army rules, its detachment's rules and the Enhancements it takes) before the datasheets."""

from __future__ import annotations

from typing import Any

from reportlab.platypus import Flowable

from ...core.system import SheetSummary
from .document import Paragraph, RosterDocument


class Wh40kDocument(RosterDocument):
    """A 40k roster's PDF. The result is the 40k check's (games.wh40k10.rules.Wh40kResult), read
    here by its attributes: the report layer imports no game."""

    def army_rules(self) -> list[Flowable]:
        cards = self.rule_cards()
        if not cards:
            return []
        return [Paragraph("Army rules", self.styles["Heading"]), *(self.sheet_table(card) for card in cards)]

    def rule_cards(self) -> list[SheetSummary]:
        """The army rules of its faction, its detachment's rules and the Enhancements it takes."""
        result: Any = self.result
        cards = []
        army_rules = result.faction.army_rules
        if army_rules:
            cards.append(SheetSummary("Army rule" if len(army_rules) == 1 else "Army rules", result.faction_name,
                                      lines=[(rule.name, rule.text) for rule in army_rules]))
        detachment = result.detachment
        if detachment is not None and detachment.rules:
            cards.append(SheetSummary("Detachment rule" if len(detachment.rules) == 1 else "Detachment rules",
                                      detachment.name, lines=[(rule.name, rule.text) for rule in detachment.rules]))
        taken = [(unit, unit.enhancement) for unit in result.units if unit.enhancement is not None]
        if taken:
            cards.append(SheetSummary("Enhancements", "taken by this army", lines=[
                (f"{enhancement.name} ({enhancement.points} pts, #{unit.index + 1} {unit.name})", enhancement.text)
                for unit, enhancement in taken]))
        return cards
