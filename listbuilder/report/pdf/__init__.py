"""The printable roster (reportlab platypus): document.py is every game's, formations.py the list
engine's (Epic Armageddon); a game's system names its own document (GameSystem.pdf_document)."""

from __future__ import annotations

from typing import Any

from ...core.system import imported
from ...games import system_for
from ...listengine.catalog import Catalog
from .document import PAPERS, RosterDocument


def roster_pdf(result: Any, catalog: Catalog, paper: str = "a4", source: str | None = None) -> bytes:
    """The roster as a PDF document. `source` is the roster file's name as the user gave it."""
    if paper not in PAPERS:
        raise ValueError(f"unknown paper '{paper}' (known: {', '.join(PAPERS)})")
    return document_for(result.roster.game)(result, catalog, PAPERS[paper], source).render()


def document_for(game: str) -> type[RosterDocument]:
    """The class of a game's printed roster: every game's, or the one its system names."""
    named = system_for(game).pdf_document
    return RosterDocument if named is None else imported(named)
