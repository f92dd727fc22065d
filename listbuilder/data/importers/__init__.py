"""Importers of data that users bring: BattleScribe catalogues (bsdata)."""
