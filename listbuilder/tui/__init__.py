"""The Textual roster editor (the only part of listbuilder that imports textual)."""

from __future__ import annotations

from pathlib import Path

from ..listengine.catalog import Catalog


def run_editor(catalog: Catalog, path: Path | None = None, new: bool = False, *, game: str | None = None,
               army: str | None = None, points: int | None = None) -> int:
    """Open the editor on `path`, on a new roster (`new`, saved to `path` if given), or on the
    demo roster; returns the exit code."""
    from .app import run_editor as run

    return run(catalog, path, new, game=game, army=army, points=points)
