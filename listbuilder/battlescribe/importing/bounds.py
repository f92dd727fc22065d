"""How much a file may hold before it is refused: every reader checks these (read as
`bounds.NAME` when checked, so a test may lower one).

The largest real catalogue (BSData 40k, 2026) is 3.5 MB with 60,000 elements nested 20 deep;
the bounds leave room for ten times that and stop a hostile file long before memory runs out."""

from __future__ import annotations

from .errors import UnreadableFile

MAX_FILE_BYTES = 64 * 1024 * 1024  # a file as given, and a zipped file's content once unzipped
MAX_ELEMENTS = 2_000_000  # elements (or JSON objects) in one file
MAX_DEPTH = 100  # elements nested in one another (lxml's own limit is 256)
MAX_ZIP_ENTRIES = 16  # entries a zipped file may list (it holds one file)


def check_size(size: int, what: str = "the file") -> None:
    if size > MAX_FILE_BYTES:
        raise UnreadableFile(f"{what} is {size:,} bytes; files over {MAX_FILE_BYTES:,} bytes are refused")


def too_deep() -> UnreadableFile:
    return UnreadableFile(f"elements are nested more than {MAX_DEPTH} deep; real BattleScribe files "
                          "nest about 20, so the file is refused")


def too_many() -> UnreadableFile:
    return UnreadableFile(f"the file has more than {MAX_ELEMENTS:,} elements; it is refused")


def counted(elements: int, depth: int) -> int:
    """One more element than `elements`, at `depth`: refused past either bound."""
    if elements + 1 > MAX_ELEMENTS:
        raise too_many()
    if depth > MAX_DEPTH:
        raise too_deep()
    return elements + 1
