"""Lists in the forms other tools write, read into rosters: the file's bytes, bounded; a zip archive
opened; the form told from the bytes; then the game that reads that form places it.

40k: the official app's text, New Recruit's text (both of its layouts) and BattleScribe rosters,
`.ros` (XML) and `.rosz` (the same, zipped). Each is untrusted: the file and the unzipped roster
are bounded in size. The readers of each form and the placing of names are the game's
(games/wh40k10/importing/foreign.py, listtext.py, lists.py).
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path as FsPath
from typing import TYPE_CHECKING

from ..core.findings import Finding, LoadFailure, Location
from ..data.yamlfile import MAX_BYTES

if TYPE_CHECKING:
    from ..games.wh40k10.lists import ImportedList
    from ..listengine.catalog import Catalog

# The 40k pack is imported where a list is read, so that checking a YAML roster never loads it.

BATTLESCRIBE = "a BattleScribe roster"
LIST_SUFFIXES = (".ros", ".rosz", ".txt")  # what `check` picks up in a folder besides YAML rosters
MAX_UNZIPPED = 8 * MAX_BYTES  # a 3,000-point .ros is well under 1 MB; a zip bomb is refused unread
ZIP_MAGIC = b"PK\x03\x04"


def unreadable(shown: str, message: str, line: int | None = None, suggestion: str | None = None) -> LoadFailure:
    return LoadFailure([Finding("list-unreadable", message, location=Location(shown, line), suggestion=suggestion)])


def read_bounded(path: FsPath, shown: str) -> bytes:
    """The file's bytes, at most one past MAX_BYTES (read_list_data refuses those)."""
    try:
        with path.open("rb") as stream:
            return stream.read(MAX_BYTES + 1)
    except OSError as error:
        raise unreadable(shown, f"cannot read the file: {error.strerror or error}") from None


def unzipped(data: bytes, shown: str) -> bytes:
    """The one .ros inside a .rosz, read no further than MAX_UNZIPPED whatever its header claims."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = [m for m in archive.infolist() if m.filename.lower().endswith(".ros")]
        if len(members) != 1:
            raise unreadable(shown, f"a .rosz holds one .ros roster; this one holds {len(members)}")
        with archive.open(members[0]) as stream:
            unzipped = stream.read(MAX_UNZIPPED + 1)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, EOFError, RuntimeError) as error:
        raise unreadable(shown, f"not a readable zip archive ({error})") from None
    if len(unzipped) > MAX_UNZIPPED:
        raise unreadable(shown, f"the roster inside is larger than {MAX_UNZIPPED:,} bytes unzipped; refused")
    return unzipped


def is_list(path: FsPath) -> bool:
    """A file `check` reads as another tool's list rather than as a YAML roster."""
    return path.suffix.lower() in LIST_SUFFIXES


def list_form(data: bytes) -> str | None:
    """Which form of 40k list the bytes are, if any (a zip archive is taken for a .rosz)."""
    if data.startswith(ZIP_MAGIC) or data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
        return BATTLESCRIBE
    from ..games.wh40k10.listtext import text_form

    try:
        return text_form(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        return None


def read_list(path: FsPath, catalog: Catalog, shown: str | None = None, data: bytes | None = None) -> ImportedList:
    """Read a list file in any form this knows, against the installed data (`data`: its bytes, if
    already read). Raises LoadFailure when the file cannot be read or its form is not known; a list
    that reads has its findings in the result."""
    shown = shown or str(path)
    return read_list_data(read_bounded(path, shown) if data is None else data, shown, catalog)


def read_list_data(data: bytes, shown: str, catalog: Catalog) -> ImportedList:
    """The same, from the bytes of a file (at most MAX_BYTES) or of standard input."""
    from ..games.wh40k10.importing.foreign import imported_list

    if len(data) > MAX_BYTES:
        raise unreadable(shown, f"the file is larger than {MAX_BYTES:,} bytes")
    form = list_form(data)
    if form is None:
        raise unreadable(shown, "not a list form listbuilder reads", suggestion=(
            "export the list as text from the official app or New Recruit, or as a BattleScribe .ros/.rosz file"))
    return imported_list(unzipped(data, shown) if data.startswith(ZIP_MAGIC) else data, form, shown, catalog)
