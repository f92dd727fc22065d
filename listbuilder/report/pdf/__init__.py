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
    named = system_for(result.roster.game).pdf_document
    document = RosterDocument if named is None else imported(named)
    return document(result, catalog, PAPERS[paper], source).render()
