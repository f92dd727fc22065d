"""The printable roster (reportlab platypus): document.py is every game's, formations.py the list
engine's (Epic Armageddon); a game's system names its own document (GameSystem.pdf_document)."""

from __future__ import annotations

from typing import Any

from ...listengine.catalog import Catalog
from ...listengine.engine import RosterResult
from .document import PAPERS, RosterDocument
from .formations import FormationsDocument


def roster_pdf(result: Any, catalog: Catalog, paper: str = "a4", source: str | None = None) -> bytes:
    """The roster as a PDF document. `source` is the roster file's name as the user gave it."""
    if paper not in PAPERS:
        raise ValueError(f"unknown paper '{paper}' (known: {', '.join(PAPERS)})")
    document = FormationsDocument if isinstance(result, RosterResult) else RosterDocument
    return document(result, catalog, PAPERS[paper], source).render()
