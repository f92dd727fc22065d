"""Reading untrusted BattleScribe XML: no DTDs, no entities, no network, located errors.

A catalogue is a stranger's file. Anything with a DOCTYPE (the carrier of XML bombs and
external entities) is refused: in the prolog before parsing (read as XML reads it, so that a
comment holding '<x' is not taken for the root), and again in what lxml parsed (its doctype,
internal subset and entity nodes), wherever it stood; a file not in UTF-8 is refused outright.
lxml is also told never to resolve entities or touch the network, and keeps its default limits on
depth and text size. A .gst/.cat whose root is not <gameSystem>/<catalogue> is refused. Namespaces are stripped
(the default one of the root) so that the importer reads plain element names, and every element keeps its source line.
The whitespace between elements is dropped as it is parsed: a fifth of the tree's memory, which the
importer never reads (an element's own text, even blank, is kept).
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from concurrent.futures import Executor, Future
from pathlib import Path

from lxml import etree

from ....battlescribe.importing.safe_xml import UTF16_OR_32_BOMS
from ....core.findings import Finding, Location

DATA_ROOTS = ("catalogue", "gameSystem")  # a .cat's and a .gst's
MAX_FILE_BYTES = 64 * 1024 * 1024  # the largest real catalogue is under 4 MB
ROOT_START = re.compile(rb"<[A-Za-z_]")
PROLOG_ITEM = re.compile(rb"\s+|<\?.*?\?>|<!--.*?-->", re.DOTALL)  # a declaration, PI, comment or blanks
DEFAULT_NAMESPACE = re.compile(rb"\s+xmlns=\"[^\"]*\"")
ELEMENT_NAME = re.compile(rb"<([A-Za-z_][\w.-]*)")
KNOWN_ELEMENTS = frozenset({
    "alias", "association", "associations", "catalogue", "catalogueLink", "catalogueLinks",
    "categoryEntries", "categoryEntry", "categoryLink", "categoryLinks", "characteristic",
    "characteristicType", "characteristicTypes", "characteristics", "comment", "condition",
    "conditionGroup", "conditionGroups", "conditions", "constraint", "constraints", "cost", "costType",
    "costTypes", "costs", "description", "entryLink", "entryLinks", "forceEntries", "forceEntry",
    "gameSystem", "infoGroup", "infoGroups", "infoLink", "infoLinks", "modifier", "modifierGroup",
    "modifierGroups", "modifiers", "profile", "profileType", "profileTypes", "profiles", "publication",
    "publications", "readme", "repeat", "repeats", "rule", "rules", "selectionEntries", "selectionEntry",
    "selectionEntryGroup", "selectionEntryGroups", "sharedInfoGroups", "sharedProfiles", "sharedRules",
    "sharedSelectionEntries", "sharedSelectionEntryGroups", "attribute", "attributes", "attributeType",
    "attributeTypes", "localConditionGroup", "localConditionGroups",
})


class FileChanged(Exception):
    """A file released to save memory no longer reads as it did when it was first parsed."""

    def __init__(self, finding: Finding):
        super().__init__(finding.message)
        self.finding = finding


class XmlFile:
    """A parsed file whose tree may be released, to hold only the files in use at once, and is
    parsed again when next used (or ahead of it, `prefetch`); its root's tag and attributes stay."""

    def __init__(self, path: Path, root: etree._Element, size: int):
        self.path = path
        self.size = size  # in bytes
        self.tag: str = root.tag
        self.attributes: dict[str, str] = dict(root.attrib)
        self._root: etree._Element | None = root
        self._parsing: Future | None = None  # a parse started ahead of use

    @property
    def loaded(self) -> bool:
        return self._root is not None

    @property
    def root(self) -> etree._Element:
        if self._root is None:
            root, refusal = self._parsing.result() if self._parsing else _parse(self.path)
            self._parsing = None
            if root is None or root.tag != self.tag or dict(root.attrib) != self.attributes:
                raise FileChanged(refusal or _refusal(self.path.name, f"{self.path.name} changed during the import"))
            self._root = root
        return self._root

    def prefetch(self, pool: Executor) -> None:
        """Start parsing a released file again on `pool`, ahead of its use: lxml parses without
        holding the interpreter's lock, so the import goes on meanwhile."""
        if self._root is None and self._parsing is None:
            self._parsing = pool.submit(_parse, self.path)

    def release(self) -> None:
        """Drop the tree (an element still held elsewhere keeps it alive)."""
        self._root = self._parsing = None

    def location(self, element: etree._Element | None = None) -> Location:
        return Location(self.path.name, element.sourceline if element is not None else None)


def _refusal(name: str, message: str, line: int | None = None, column: int | None = None) -> Finding:
    return Finding("bsdata-unreadable", message, location=Location(name, line, column),
                   suggestion="use the file as published in the BSData repository (a fresh clone or release)")


def parse_untrusted(data: bytes, name: str) -> tuple[etree._Element | None, Finding | None]:
    """Parse XML bytes from a stranger: refused with a located reason if they declare a DOCTYPE or
    entities (found by lxml itself too, wherever they stand and in whatever encoding), are not UTF-8
    or are not well-formed; the root's default namespace dropped, comments left out."""
    if data.startswith(UTF16_OR_32_BOMS) or b"\x00" in data[:64]:
        return None, _refusal(name, f"{name} is not UTF-8 text (BattleScribe files always are), so it is refused")
    at = _prolog_end(data)
    if data.startswith(b"<!", at):
        return None, _declared(name, data.count(b"\n", 0, at) + 1)
    root_at = at if ROOT_START.match(data, at) else None  # else the parser says what is wrong
    # Drop the default namespace from the root's start tag: the importer then reads plain names.
    root_tag_end = data.find(b">", root_at) if root_at is not None else -1
    if root_at is not None and root_tag_end > 0:
        data = data[:root_at] + DEFAULT_NAMESPACE.sub(b"", data[root_at:root_tag_end], 1) + data[root_tag_end:]
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False,
                             huge_tree=False, remove_comments=True, remove_pis=True, remove_blank_text=True)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as error:
        line, column = error.position if error.position else (None, None)
        return None, _refusal(name, f"{name} is not well-formed XML ({error.msg}); is it truncated?", line, column)
    except ValueError as error:  # an encoding lxml does not know
        return None, _refusal(name, f"{name} is not readable XML ({error})")
    info = root.getroottree().docinfo
    if info.doctype or info.internalDTD is not None or info.externalDTD is not None \
            or next(root.iter(etree.Entity), None) is not None:  # declared where the byte scan did not look
        return None, _declared(name, None)
    return root, None


def _declared(name: str, line: int | None) -> Finding:
    return _refusal(name, f"{name} declares a DOCTYPE or entities (a possible XML bomb or external entity); "
                          "BattleScribe files never do, so it is refused", line)


def _prolog_end(data: bytes) -> int:
    """Where the prolog's declaration, comments, processing instructions and blanks end: the root
    element, a DOCTYPE, or what the parser will refuse ('<x' inside a comment is not the root)."""
    at = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    while (item := PROLOG_ITEM.match(data, at)) and item.end() > at:
        at = item.end()
    return at


def _read(path: Path) -> bytes | Finding:
    """A file's bytes, or the finding that says why they cannot be read: only a regular file is
    read (a FIFO is refused without blocking, a link to /dev/zero unread), in chunks, its size
    counted as it is read. (The same opening as data/yamlfile.py's read_regular, which this layer,
    below data/, cannot import.)"""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    try:
        with os.fdopen(os.open(path, flags), "rb") as stream:
            if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
                return _refusal(path.name, f"cannot read {path.name}: it is not a regular file")
            chunks: list[bytes] = []
            size = 0
            while size <= MAX_FILE_BYTES and (chunk := stream.read(1 << 20)):
                chunks.append(chunk)
                size += len(chunk)
    except OSError as error:
        return _refusal(path.name, f"cannot read {path.name}: {error.strerror or error}")
    if size > MAX_FILE_BYTES:
        return _refusal(path.name, f"{path.name} is more than {MAX_FILE_BYTES:,} bytes; "
                                   f"catalogues over {MAX_FILE_BYTES:,} bytes are refused")
    return b"".join(chunks)


def _parse(path: Path) -> tuple[etree._Element | None, Finding | None]:
    data = _read(path)
    return parse_untrusted(data, path.name) if isinstance(data, bytes) else (None, data)


def read_ahead(paths: list[Path], pool: Executor) -> Iterator[tuple[XmlFile | None, list[Finding]]]:
    """read_xml of each path in turn, the next one read on `pool` meanwhile."""
    ahead = None
    for n, path in enumerate(paths):
        current = ahead or pool.submit(read_xml, path)
        ahead = pool.submit(read_xml, paths[n + 1]) if n + 1 < len(paths) else None
        yield current.result()


def read_xml(path: Path) -> tuple[XmlFile | None, list[Finding]]:
    """Parse one .gst/.cat file; on failure return None and the finding that says where and why."""
    data = _read(path)
    if not isinstance(data, bytes):
        return None, [data]
    root, refusal = parse_untrusted(data, path.name)
    if root is None:
        assert refusal is not None
        return None, [refusal]
    if root.tag not in DATA_ROOTS:
        return None, [_refusal(path.name, f"a BattleScribe data file's root is <catalogue> or <gameSystem>, "
                                          f"not <{str(root.tag)[:80]}>; {path.name} is not game data", root.sourceline)]
    # Scanning the bytes for element names is much faster than walking every element.
    unknown = {name.decode() for name in set(ELEMENT_NAME.findall(data))} - KNOWN_ELEMENTS
    findings = [
        Finding("bsdata-unknown-element", f"unknown element <{element.tag}> ignored", severity="warning",
                location=Location(path.name, element.sourceline),
                suggestion="a newer BattleScribe data format? update listbuilder, or report it")
        for name in sorted(unknown) for element in root.iter(name)]
    return XmlFile(path, root, len(data)), findings
