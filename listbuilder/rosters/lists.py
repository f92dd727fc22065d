"""Lists in the forms other tools write, read into rosters: the file's bytes, bounded; a zip archive
opened; the form told from the bytes; then the game that reads that form places it.

40k: the official app's text, New Recruit's text (its four layouts) and BattleScribe rosters,
`.ros` (XML) and `.rosz` (the same, zipped). Each is untrusted: the file and the unzipped roster
are bounded in size. The readers of each form and the placing of names are the game's
(games/wh40k10/importing/foreign.py, listtext.py, lists.py).
"""

from __future__ import annotations

import errno
import io
import stat
import zlib
from collections.abc import Iterator
from pathlib import Path as FsPath
from typing import TYPE_CHECKING, Any

from ..core.bounds import MAX_BYTES
from ..core.findings import Finding, LoadFailure, Location
from ..data.yamlfile import read_chunks

if TYPE_CHECKING:
    from ..core.system import ImportedList, ListReader
    from ..listengine.catalog import Catalog

# A game's readers are imported where a list is read, so that checking a YAML roster loads no pack.

LIST_SUFFIXES = (".ros", ".rosz", ".txt")  # what `check` picks up in a folder besides YAML rosters
MAX_UNZIPPED = 8 * MAX_BYTES  # a 3,000-point .ros is well under 1 MB; a zip bomb is refused unread
ZIP_MAGIC = b"PK\x03\x04"  # a zip archive (BattleScribe's .rosz)
DAMAGED = "the .rosz (a zip archive) is {} (an interrupted download or copy?): its roster cannot be unzipped"
SAVE_AGAIN = "save the list again from BattleScribe or New Recruit and use that .rosz, or export the list as text"


def unreadable(shown: str, message: str, line: int | None = None, suggestion: str | None = None) -> LoadFailure:
    return LoadFailure([Finding("list-unreadable", message, location=Location(shown, line), suggestion=suggestion)])


def read_bounded(path: FsPath, shown: str) -> bytes:
    """The file's bytes, at most one past MAX_BYTES (read_list_data refuses those), read in chunks;
    a FIFO, device or folder is refused before it is opened, and by the open file's own type."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):  # opening a FIFO blocks until something writes to it
            raise OSError(errno.EINVAL, "it is not a regular file")
        with path.open("rb") as stream:
            return read_chunks(stream, MAX_BYTES)
    except OSError as error:
        raise unreadable(shown, f"cannot read the file: {error.strerror or error}") from None


def unzipped(data: bytes, shown: str) -> bytes:
    """The one .ros inside a .rosz, read no further than MAX_UNZIPPED whatever its header claims."""
    import lzma  # a .rosz's only: a check of a roster file imports neither
    import zipfile

    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = [m for m in archive.infolist() if m.filename.lower().endswith(".ros")]
        if len(members) != 1:
            raise unreadable(shown, f"a .rosz holds one .ros roster; this one holds {len(members)}")
        with archive.open(members[0]) as stream:
            unzipped = stream.read(MAX_UNZIPPED + 1)
    except RuntimeError:  # zipfile's word for an archive locked with a password
        raise unreadable(shown, "the zip archive is locked with a password, which BattleScribe and New Recruit never "
                         "set", suggestion=SAVE_AGAIN) from None
    except NotImplementedError:  # a compression method zipfile lacks
        raise unreadable(shown, "the roster inside the zip archive is compressed in a way listbuilder cannot unzip "
                         "(BattleScribe and New Recruit deflate it)", suggestion=SAVE_AGAIN) from None
    # a cut or damaged archive: its directory missing or pointing outside the file (ValueError: a
    # negative seek), or a corrupt deflate, lzma or bzip2 stream; Python's words mean nothing to a player
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, ValueError, zlib.error, lzma.LZMAError, OSError):
        raise unreadable(shown, DAMAGED.format("damaged or cut short"), suggestion=SAVE_AGAIN) from None
    if len(unzipped) > MAX_UNZIPPED:
        raise unreadable(shown, f"the roster inside is larger than {MAX_UNZIPPED:,} bytes unzipped; refused")
    return unzipped


def is_list(path: FsPath) -> bool:
    """A file `check` reads as another tool's list rather than as a YAML roster."""
    return path.suffix.lower() in LIST_SUFFIXES


def list_form(data: bytes, fallback: bool = False) -> str | None:
    """Which form of list the games read the bytes are, if any (`fallback`: any text is list text)."""
    return next((form for _, form in _readers_of(data, fallback)), None)


def _readers_of(data: bytes, fallback: bool) -> Iterator[tuple[ListReader, str]]:
    from ..games import list_readers  # each game's readers: loaded only for a list

    for reader in list_readers(fallback):
        form = reader.form(data)
        if form is not None:
            yield reader, form


def read_list(path: FsPath, catalog: Catalog, shown: str | None = None, data: bytes | None = None) -> ImportedList[Any]:
    """Read a list file in any form this knows, against the installed data (`data`: its bytes, if
    already read). Raises LoadFailure when the file cannot be read or its form is not known; a list
    that reads has its findings in the result."""
    shown = shown or str(path)
    return read_list_data(read_bounded(path, shown) if data is None else data, shown, catalog)


def read_list_data(data: bytes, shown: str, catalog: Catalog, fallback: bool = False) -> ImportedList[Any]:
    """The same, from the bytes of a file (at most MAX_BYTES) or of standard input (`fallback`: text
    in no other form is read as list text, which bounds itself)."""
    reader, form = next(_readers_of(data, fallback), (None, None))
    named_rosz = FsPath(shown).suffix.lower() == ".rosz"
    if named_rosz and not data.startswith(ZIP_MAGIC) and (reader is None or reader.fallback):  # its start lost
        raise unreadable(shown, DAMAGED.format("missing its start"), suggestion=SAVE_AGAIN)
    if reader is not None and form is not None and reader.fallback:
        return reader.read(data, form, shown, catalog)
    if len(data) > MAX_BYTES:
        raise unreadable(shown, f"the file is larger than {MAX_BYTES:,} bytes")
    if reader is None or form is None:
        raise unreadable(shown, "not a list form listbuilder reads", suggestion=(
            "export the list as text from the official app or New Recruit, or as a BattleScribe .ros/.rosz file"))
    return reader.read(unzipped(data, shown) if data.startswith(ZIP_MAGIC) else data, form, shown, catalog)
