"""A game-neutral BattleScribe engine."""
