"""Downloading the latest release of a game's BSData repository, where there is internet.

Only the `.gst` and `.cat` files of the release's source archive are kept, each bounded in size
and written under its bare name (an archive entry cannot escape the folder); the files are then
imported like a local copy. Offline, the failure says so and points at the local import.
"""

from __future__ import annotations

import io
import json
import urllib.error
import urllib.request
import zipfile
from pathlib import Path, PurePosixPath

from ....core.findings import Finding, LoadFailure, Location
from ... import DATA_SOURCES
from .installed import data_dir

GITHUB_API = "https://api.github.com"
MAX_ARCHIVE_BYTES = 256 * 1024 * 1024
MAX_MEMBER_BYTES = 64 * 1024 * 1024
TIMEOUT_SECONDS = 30


def _failure(message: str, suggestion: str | None = None) -> LoadFailure:
    return LoadFailure([Finding("bsdata-fetch-failed", message, location=Location("listbuilder data fetch"),
                                suggestion=suggestion)])


def _get(url: str) -> bytes:
    request = urllib.request.Request(url, headers={"User-Agent": "listbuilder",
                                                   "Accept": "application/vnd.github+json"})
    with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:
        data = response.read(MAX_ARCHIVE_BYTES + 1)
    if len(data) > MAX_ARCHIVE_BYTES:
        raise _failure(f"{url} is larger than {MAX_ARCHIVE_BYTES:,} bytes; refused")
    return data


def fetch_latest(game: str, api: str = GITHUB_API) -> tuple[Path, str]:
    """Download the latest release of the game's repository; return (folder, release tag)."""
    repository = DATA_SOURCES.get(game)
    if repository is None:
        raise _failure(f"no BSData repository is known for {game!r}",
                       f"known: {', '.join(sorted(DATA_SOURCES))}")
    try:
        release = json.loads(_get(f"{api}/repos/{repository}/releases/latest"))
        tag, archive_url = release["tag_name"], release["zipball_url"]
        archive = zipfile.ZipFile(io.BytesIO(_get(archive_url)))
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", None) or error
        raise _failure(f"cannot download {repository} from GitHub ({reason}); is this machine offline?",
                       "import a local copy instead: listbuilder data import bsdata PATH") from None
    except (ValueError, KeyError, zipfile.BadZipFile) as error:
        raise _failure(f"GitHub's answer for {repository} is not a release with a source archive ({error})") from None
    folder = data_dir() / "bsdata" / game / tag
    folder.mkdir(parents=True, exist_ok=True)
    for member in archive.infolist():
        name = PurePosixPath(member.filename).name
        if member.is_dir() or not name.endswith((".gst", ".cat")) or name.startswith("."):
            continue
        if member.file_size > MAX_MEMBER_BYTES:
            raise _failure(f"{member.filename} in the release archive is too large ({member.file_size:,} bytes)")
        (folder / name).write_bytes(archive.read(member))
    return folder, tag
