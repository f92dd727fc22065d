"""Game system (.gst, .gstz) and catalogue (.cat, .catz) XML -> the dict form.

The dict form is the one the engine and the conformance specs write: camelCase keys as the XML
attributes, lists under their container's name, booleans and numbers typed (see xml_tree.py)."""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

from .safe_xml import parse, xml_bytes
from .xml_tree import TreeReader, root_name

DataKind = Literal["gameSystem", "catalogue"]
DATA_ROOTS: tuple[DataKind, ...] = ("gameSystem", "catalogue")


class DataRoot(NamedTuple):
    """A game system or catalogue: which it is, and its root element as a dict."""

    kind: DataKind
    root: dict[str, Any]


def read_data_xml(data: bytes, source_lines: bool = False) -> DataRoot:
    """A .gst/.cat file's bytes (or its zipped .gstz/.catz form) as a dict; with `source_lines`,
    each element that has an `id` also has `sourceLine`, its line in the XML.

    Raises UnreadableFile for anything that is not a readable game system or catalogue."""
    root_element = parse(xml_bytes(data))
    kind: DataKind = root_name(root_element, DATA_ROOTS)  # type: ignore[assignment]
    return DataRoot(kind, TreeReader(source_lines).read(root_element))
