"""A game system and its catalogues, in any of the forms read here, -> one JSON-serialisable bundle.

    {"gameSystem": {...}, "catalogues": [{...}, ...], "sources": {id: {"file", "revision"}}}

Each element with an `id` read from XML keeps its `sourceLine`, so a finding can cite
file:line (the file is the `sources` entry of the game system or catalogue it is in)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .data_json import read_data_json
from .data_xml import DataRoot, read_data_xml
from .errors import UnreadableFile

XML_SUFFIXES = (".gst", ".gstz", ".cat", ".catz")
JSON_SUFFIXES = (".json",)


def compile_data(files: dict[str, bytes]) -> dict[str, Any]:
    """One game system and its catalogues (file name -> bytes) as one bundle, catalogues in file
    name order. Raises UnreadableFile, naming the file, for a file that cannot be read or does
    not belong: not one game system, a catalogue of another game system, an id used twice."""
    roots = [(name, _read(name, files[name])) for name in sorted(files)]
    system_name, system = _the_game_system(roots)
    catalogues = [(name, root.root) for name, root in roots if root.kind == "catalogue"]
    for name, catalogue in catalogues:
        _check_belongs(name, catalogue, system)
    return {"gameSystem": system, "catalogues": [catalogue for _, catalogue in catalogues],
            "sources": _sources([(system_name, system), *catalogues])}


def faction_catalogues(bundle: dict[str, Any], name: str) -> list[dict[str, Any]]:
    """A faction's catalogue and every catalogue it links, directly or through another."""
    by_id = {catalogue["id"]: catalogue for catalogue in bundle["catalogues"]}
    found = [next(c for c in bundle["catalogues"] if c["name"] == name)]
    for catalogue in found:  # grows as it goes
        for link in catalogue.get("catalogueLinks", []):
            target = by_id.get(link.get("targetId"))
            if target is not None and target not in found:
                found.append(target)
    return found


def reader_for(name: str) -> Callable[[bytes], DataRoot]:
    """The reader of a file, by its name's suffix."""
    lowered = name.lower()
    if lowered.endswith(XML_SUFFIXES):
        return lambda data: read_data_xml(data, source_lines=True)
    if lowered.endswith(JSON_SUFFIXES):
        return read_data_json
    raise UnreadableFile("not a game system or catalogue: the name should end .gst, .gstz, .cat, .catz "
                         "or .json", file=name)


def _read(name: str, data: bytes) -> DataRoot:
    read = reader_for(name)
    try:
        return read(data)
    except UnreadableFile as error:
        raise error.in_file(name) from None


def _the_game_system(roots: list[tuple[str, DataRoot]]) -> tuple[str, dict[str, Any]]:
    systems = [(name, root.root) for name, root in roots if root.kind == "gameSystem"]
    if len(systems) != 1:
        found = ", ".join(name for name, _ in systems) or "none"
        raise UnreadableFile(f"exactly one game system (.gst) is needed with its catalogues; found {found}")
    return systems[0]


def _check_belongs(name: str, catalogue: dict[str, Any], system: dict[str, Any]) -> None:
    if catalogue.get("gameSystemId") != system.get("id"):
        raise UnreadableFile(f"this catalogue is for game system {catalogue.get('gameSystemId')!r}, not "
                             f"{system.get('name')!r} ({system.get('id')!r})", file=name)


def _sources(roots: list[tuple[str, dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    sources: dict[str, dict[str, Any]] = {}
    for name, root in roots:
        root_id = root.get("id")
        if not isinstance(root_id, str) or not root_id:
            raise UnreadableFile("the file's root has no id", file=name)
        if root_id in sources:
            raise UnreadableFile(f"its id {root_id!r} is also the id of {sources[root_id]['file']}", file=name)
        sources[root_id] = {"file": name, "revision": root.get("revision")}
    return sources
