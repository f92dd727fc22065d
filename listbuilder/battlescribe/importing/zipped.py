"""The zipped forms (.gstz, .catz, .rosz): a zip holding one file, read within bounds, and written
with fixed dates so the same content always gives the same bytes."""

from __future__ import annotations

import io
import zipfile
import zlib

from . import bounds
from .bounds import check_size
from .errors import UnreadableFile

ZIP_MAGIC = b"PK\x03\x04"
FIXED_DATE = (1980, 1, 1, 0, 0, 0)  # the earliest a zip can say


def is_zip(data: bytes) -> bool:
    return data.startswith(ZIP_MAGIC)


def unzip_single(data: bytes) -> bytes:
    """The one file inside a zip, its size bounded whatever the zip's headers claim."""
    check_size(len(data))
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return _read_the_one_file(archive)
    except UnreadableFile:
        raise
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError, ValueError):
        raise UnreadableFile("the zipped file is damaged or cut short (an interrupted download or copy?) and cannot "
                             "be unzipped; download or save it again") from None


def _read_the_one_file(archive: zipfile.ZipFile) -> bytes:
    entries = archive.infolist()
    if len(entries) > bounds.MAX_ZIP_ENTRIES:
        raise UnreadableFile(f"the zipped file lists {len(entries):,} entries; it should hold one file")
    files = [entry for entry in entries if not entry.is_dir()]
    if len(files) != 1:
        raise UnreadableFile(f"the zipped file holds {len(files)} files; it should hold exactly one")
    check_size(files[0].file_size, "the zipped file's content")
    with archive.open(files[0]) as content:
        unzipped = content.read(bounds.MAX_FILE_BYTES + 1)  # the header's size may lie: read no further
    check_size(len(unzipped), "the zipped file's content")
    return unzipped


def zip_single(name: str, content: bytes) -> bytes:
    """A zip holding `content` as `name`, deflated, byte-for-byte the same on every run."""
    entry = zipfile.ZipInfo(name, date_time=FIXED_DATE)
    entry.compress_type = zipfile.ZIP_DEFLATED
    entry.external_attr = 0o644 << 16
    entry.create_system = 0
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(entry, content, compresslevel=9)
    return buffer.getvalue()
