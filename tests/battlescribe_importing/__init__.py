"""Tests of listbuilder.battlescribe.importing: bytes in, dicts out."""
