"""YAML documents that remember where every key and item came from.

Two readers: `parse` (libyaml's C parser, building plain containers that keep each key's and
item's position; what `check` and the catalog use) and `parse_round_trip` (ruamel's round-trip
reader, keeping comments, for a file the editor will write back). Both are bounded before they
build anything: size, nesting, number size; neither follows anchors or runs tags."""

from __future__ import annotations

import contextlib
import errno
import json
import math
import os
import re
import stat
import typing
from dataclasses import dataclass
from pathlib import Path as FsPath
from types import UnionType
from typing import Any, BinaryIO

from _ruamel_yaml import CParser
from pydantic import BaseModel, ValidationError
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq, TaggedScalar
from ruamel.yaml.emitter import RoundTripEmitter
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)
from ruamel.yaml.reader import ReaderError
from ruamel.yaml.representer import RoundTripRepresenter
from ruamel.yaml.resolver import implicit_resolvers

from ..core.bounds import MAX_BYTES
from ..core.findings import Finding, LoadFailure, Location, Path
from ..core.names import did_you_mean

MAX_DEPTH = 24
MAX_ITEMS = 10_000  # in one list or mapping: the game data's largest has 47, a roster at most 1,000 formations
MAX_NUMBER = 10**15 - 1  # exact as a float (no OverflowError in a per-points sum); int() of a huge one is slow
BOM = "\ufeff"
_OTHER_BREAKS = "\x85\u2028\u2029"  # line breaks to libyaml (YAML 1.1), besides CR and LF


class _Representer(RoundTripRepresenter):
    """ruamel's, but a text holding NEL, LS or PS is written double-quoted, escaped: ruamel would
    write it raw in single quotes, where libyaml reads NEL as a line break folded into a space."""

    def represent_str(self, data: str) -> Any:
        style = '"' if any(c in data for c in _OTHER_BREAKS) else None
        return self.represent_scalar("tag:yaml.org,2002:str", data, style=style)


_Representer.add_representer(str, _Representer.represent_str)


class _Emitter(RoundTripEmitter):
    """ruamel's, but a double-quoted text is written on one line: folded right after an escape
    (`\\t`, `\\P`), it reads back with a space that was not there."""

    def write_double_quoted(self, text: Any, split: Any = True) -> None:
        super().write_double_quoted(text, split=False)


def round_trip_yaml() -> YAML:
    yaml = YAML(typ="rt")
    yaml.Representer, yaml.Emitter = _Representer, _Emitter
    yaml.preserve_quotes = True
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.width = 100
    return yaml


class Map(dict):
    """A mapping read by `parse`: `marks` holds each key's (line, column), 0-based."""

    __slots__ = ("start", "marks")


class Seq(list):
    """A sequence read by `parse`: `marks` holds each item's (line, column), 0-based."""

    __slots__ = ("start", "marks")


def _key_mark(node: Any, key: Any) -> tuple[int, int] | None:
    if isinstance(node, Map):
        return node.marks.get(key)
    return node.lc.key(key) if isinstance(node, CommentedMap) and key in node else None


def _item_mark(node: Any, index: Any) -> tuple[int, int] | None:
    if not isinstance(index, int) or not isinstance(node, list) or not 0 <= index < len(node):
        return None
    return (node.marks[index] if isinstance(node, Seq)
            else node.lc.item(index) if isinstance(node, CommentedSeq) else None)


def _start(node: Any) -> tuple[int, int] | None:
    if isinstance(node, (Map, Seq)):
        return node.start
    return (node.lc.line, node.lc.col) if isinstance(node, (CommentedMap, CommentedSeq)) else None


@dataclass
class Document:
    """A parsed YAML file: its data and where it came from; for a file written back, its line
    ending and whether it began with a byte order mark."""

    name: str  # the path as shown to people
    data: Any
    newline: str = "\n"
    bom: bool = False

    def locate(self, path: Path) -> Location:
        """The line and column of the deepest part of `path` that exists in the document."""
        node, mark = self.data, None
        for part in path:
            found = _key_mark(node, part) if isinstance(node, dict) else _item_mark(node, part)
            if found is not None:
                mark, node = found, node[part]
            elif not isinstance(node, (dict, list)):
                break
            # else: union branch names and the like in pydantic locations are skipped
        if mark is None and isinstance(self.data, dict):
            mark = _start(self.data)
        return Location(self.name, None if mark is None else mark[0] + 1, None if mark is None else mark[1] + 1)


def _failure(code: str, message: str, name: str, mark: tuple[int, int] | None = None) -> LoadFailure:
    return LoadFailure([Finding(code, message, location=Location(name, *(
        (mark[0] + 1, mark[1] + 1) if mark else ())))])


def _line_ending(text: str) -> str:
    end = text.find("\n")
    return "\r\n" if end > 0 and text[end - 1] == "\r" else "\n"


def _checked_size(text: str, name: str) -> None:
    if len(text) > MAX_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise _failure("file-too-large", f"the file is larger than {MAX_BYTES:,} bytes", name)


def parse(text: str, name: str) -> Document:
    """Parse YAML text into plain containers with positions; a syntax error, a duplicate key,
    anchors, or excessive size, depth or numbers give a LoadFailure with the position."""
    _checked_size(text, name)
    try:
        data = _Builder(name).build(text.removeprefix(BOM))
    except LoadFailure:
        raise
    except (YAMLError, ValueError) as error:  # ValueError: a string the C parser cannot take
        # ruamel's own message, the one people have seen so far; where ruamel itself breaks (an
        # AssertionError on a %YAML 1.3 directive, a ValueError on its 5,000-digit version), the C parser's
        with contextlib.suppress(RecursionError, AssertionError, ValueError, NotImplementedError):
            _parse_round_trip_data(text, name)
        raise _syntax_failure(error, name) from None
    return Document(name, data, _line_ending(text), text.startswith(BOM))


def parse_round_trip(text: str, name: str) -> Document:
    """Parse YAML text with ruamel's round-trip reader (comments and key order kept), for a file
    that will be written back. The same bounds and errors as `parse`, which checks it first."""
    parse(text, name)
    try:
        data = _parse_round_trip_data(text, name)
    except (ValueError, KeyError, AttributeError, TypeError):  # ruamel running an explicit tag: `!!int abc`
        tag, mark = _first_tag(text.removeprefix(BOM))
        raise _failure("yaml-tag", f"YAML error: the value cannot be read as {tag}; remove the tag and write "
                       "the value itself", name, mark) from None
    return Document(name, data, _line_ending(text), text.startswith(BOM))


def _parse_round_trip_data(text: str, name: str) -> Any:
    try:
        return round_trip_yaml().load(_as_libyaml_reads(text.removeprefix(BOM)))
    except YAMLError as error:
        raise _syntax_failure(error, name, text) from None


# Where libyaml (`check`) and ruamel's round-trip reader part: libyaml takes NEL, LS and PS for line
# breaks everywhere, ruamel counts no line for them and refuses some; libyaml allows a tab as
# separating space and inside a plain value, ruamel refuses both.
_LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
_ESCAPES = {"\x85": "\\N", "\u2028": "\\L", "\u2029": "\\P"}


def _as_libyaml_reads(text: str) -> str:
    """`text` (which `parse` read) written so that ruamel reads what libyaml reads, on the same
    lines: outside values, those line breaks become newlines and tabs before a comment spaces; a
    value holding one of them (or a plain value a tab) is written double-quoted, escaped."""
    if not any(c in text for c in "\t" + _OTHER_BREAKS):
        return text
    parser, pieces, done = CParser(text), [], 0  # the text up to `done` is in `pieces`
    while True:
        try:
            event = parser.get_event()
        except YAMLError:
            return text  # libyaml refuses it: ruamel's reading (and message) of the text as it is
        if isinstance(event, StreamEndEvent):
            break
        if not isinstance(event, ScalarEvent):
            continue
        start, end = event.start_mark, event.end_mark
        written = text[start.index:end.index]  # its tag too, if any
        if any(c in written for c in _OTHER_BREAKS) or (not event.style and "\t" in written):
            written = (f"!<{event.tag}> " * (event.tag is not None)
                       + json.dumps(event.value, ensure_ascii=False).translate(str.maketrans(_ESCAPES))
                       + "\n" * (end.line - start.line) + " " * end.column * (end.line > start.line))
        pieces += [_between(text[done:start.index]), written]
        done = end.index
    return "".join(pieces) + _between(text[done:])


def _between(text: str) -> str:
    """Text between values as ruamel reads it: newlines for libyaml's line breaks, spaces for the
    tabs before a line's comment (those in the comment kept)."""
    lines = _LINE_BREAK.split(text)
    return "\n".join(code.replace("\t", " ") + sign + comment for code, sign, comment in
                     (line.partition("#") for line in lines))


def _first_tag(text: str) -> tuple[str, tuple[int, int] | None]:
    """The first explicit tag (`!!int`, `!!omap`) in text `parse` has read, and where it stands."""
    parser = CParser(text)
    while not isinstance(event := parser.get_event(), StreamEndEvent):
        if isinstance(event, (ScalarEvent, MappingStartEvent, SequenceStartEvent)) and event.tag is not None \
                and not (isinstance(event, ScalarEvent) and event.implicit[0]):
            return event.tag.replace("tag:yaml.org,2002:", "!!"), (event.start_mark.line, event.start_mark.column)
    return "with a tag", None


def _syntax_failure(error: Exception, name: str, text: str = "") -> LoadFailure:
    if isinstance(error, ReaderError) and text:  # a character YAML does not allow, e.g. a NUL byte
        before = text.removeprefix(BOM)[:error.position]
        return _failure("yaml-syntax", f"YAML error: character {error.character!r} is not allowed", name,
                        (before.count("\n"), len(before) - before.rfind("\n") - 1))
    if not isinstance(error, MarkedYAMLError):
        return _failure("yaml-syntax", f"YAML error: {str(error).splitlines()[0]}", name)
    mark, start = error.problem_mark or error.context_mark, error.context_mark
    problem = " ".join(str(p).splitlines()[0] for p in (error.context, error.problem) if p)
    if start is not None and mark is not None and start.line != mark.line:
        problem += f" (the construct began at line {start.line + 1}, column {start.column + 1})"
    return _failure("yaml-syntax", f"YAML error: {problem}", name, (mark.line, mark.column) if mark else None)


def _implicit_tags() -> dict[str, list[tuple[str, Any]]]:
    """YAML 1.2's implicit tags by first character, as ruamel's resolver has them (asking the
    resolver itself costs 50 µs a scalar)."""
    table: dict[str, list[tuple[str, Any]]] = {}
    for versions, tag, regexp, first in implicit_resolvers:
        if (1, 2) in versions:
            for character in first:
                table.setdefault(character, []).append((tag.rsplit(":", 1)[-1], regexp))
    return table


_IMPLICIT = _implicit_tags()
_NO_KEY = object()


class _Builder:
    """Plain data from the C parser's events, without recursion: a stack of open containers."""

    def __init__(self, name: str):
        self.name = name

    def build(self, text: str) -> Any:
        parser, root, documents = CParser(text), None, 0
        stack: list[list[Any]] = []  # [container, key waiting for its value, that key's mark]
        while True:
            event = parser.get_event()
            kind = type(event)
            mark = (event.start_mark.line, event.start_mark.column)
            if kind is ScalarEvent or kind is MappingStartEvent or kind is SequenceStartEvent:
                if event.anchor is not None:
                    raise self._alias(mark)
                if kind is ScalarEvent:
                    value: Any = self._scalar(event, mark)
                else:
                    if len(stack) > MAX_DEPTH:
                        raise _failure("yaml-too-deep", f"nested more than {MAX_DEPTH} levels deep", self.name, mark)
                    value = Map() if kind is MappingStartEvent else Seq()
                    value.start, value.marks = mark, {} if kind is MappingStartEvent else []
                if not stack:
                    root = value
                else:
                    self._place(stack[-1], value, mark)
                if kind is not ScalarEvent:
                    stack.append([value, _NO_KEY, None])
            elif kind is MappingEndEvent or kind is SequenceEndEvent:
                stack.pop()
            elif kind is AliasEvent:
                raise self._alias(mark)
            elif kind is DocumentStartEvent:
                documents += 1
                if documents > 1:
                    raise _failure("yaml-syntax", "YAML error: expected a single document in the file, but found "
                                   "another ('---')", self.name, mark)
            elif kind is StreamEndEvent:
                return root

    def _place(self, top: list[Any], value: Any, mark: tuple[int, int]) -> None:
        container = top[0]
        if len(container) >= MAX_ITEMS:  # refused while reading: a 1 MB file of 56,000 formations stops here
            raise _failure("too-many-items", f"more than {MAX_ITEMS:,} items in one list or mapping", self.name, mark)
        if isinstance(container, list):
            container.append(value)
            container.marks.append(mark)
        elif top[1] is _NO_KEY:
            if isinstance(value, (Map, Seq)):
                raise _failure("yaml-syntax", "YAML error: a key must be a plain value, not a mapping or list",
                               self.name, mark)
            top[1], top[2] = value, mark
        else:
            key = top[1]
            if key in container:
                first = container.marks[key]
                raise _failure("yaml-syntax", f"YAML error: duplicate key \"{key}\" (first given at line "
                               f"{first[0] + 1}, column {first[1] + 1})", self.name, top[2])
            container[key] = value
            container.marks[key] = top[2]
            top[1] = _NO_KEY

    def _alias(self, mark: tuple[int, int]) -> LoadFailure:
        return _failure("yaml-alias", "anchors and aliases (&, *) are not allowed here", self.name, mark)

    def _scalar(self, event: ScalarEvent, mark: tuple[int, int]) -> Any:
        """YAML 1.2's core schema, as ruamel reads it; explicit tags are not run, the text is kept;
        dates stay text."""
        value = event.value
        if event.tag is not None or not event.implicit[0]:
            return value
        tag = next((tag for tag, regexp in _IMPLICIT.get(value[:1], ()) if regexp.match(value)), "str")
        if tag == "null":
            return None
        if tag == "bool":
            return value.lower() == "true"
        if tag == "int":
            return self._bounded(_integer(value) if len(value) <= 40 else math.inf, value, mark)
        if tag == "float":
            return self._bounded(_real(value), value, mark)
        return value

    def _bounded(self, number: float, written: str, mark: tuple[int, int]) -> float:
        if abs(number) > MAX_NUMBER:  # False for nan, which the schema refuses with its own message
            shown = written if len(written) <= 20 else written[:17] + "..."
            raise _failure("number-too-large", f"{shown} is too large: numbers here are at most {MAX_NUMBER:,}",
                           self.name, mark)
        return number


def _integer(text: str) -> int:
    digits = text.replace("_", "")
    sign = -1 if digits.startswith("-") else 1
    digits = digits.lstrip("+-")
    for prefix, base in (("0b", 2), ("0o", 8), ("0x", 16)):
        if digits.startswith(prefix):
            return sign * int(digits[2:], base)
    return sign * int(digits)


def _real(text: str) -> float:
    lowered = text.replace("_", "").lower()
    return float(lowered.replace(".inf", "inf").replace(".nan", "nan"))


def read_regular(path: FsPath, limit: int = MAX_BYTES) -> bytes:
    """At most `limit` + 1 bytes of a regular file, read in chunks (never trusting the size the
    file claims: /dev/zero claims none). A FIFO, device or folder is refused unopened or without
    blocking: OSError, its strerror saying why."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    handle = os.open(path, flags)
    with os.fdopen(handle, "rb") as stream:
        return read_chunks(stream, limit)


def read_chunks(stream: BinaryIO, limit: int = MAX_BYTES) -> bytes:
    """At most `limit` + 1 bytes of an open file, which must be a regular one (OSError if not)."""
    if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
        raise OSError(errno.EINVAL, "it is not a regular file")
    chunks: list[bytes] = []
    size = 0
    while size <= limit and (chunk := stream.read(min(65536, limit + 1 - size))):
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def read_text(path: FsPath, name: str) -> str:
    """The text of a regular file of at most MAX_BYTES (read_regular)."""
    try:
        data = read_regular(path)
    except OSError as error:
        raise _failure("unreadable", f"cannot read the file: {error.strerror or error}", name) from None
    if len(data) > MAX_BYTES:
        raise _failure("file-too-large", f"the file is larger than {MAX_BYTES:,} bytes", name)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        before = data[:error.start].decode("utf-8")
        raise _failure("unreadable", f"cannot read the file: byte 0x{data[error.start]:02x} is not UTF-8 text", name,
                       (before.count("\n"), len(before) - before.rfind("\n") - 1)) from None


def read(path: FsPath, shown_as: str | None = None, round_trip: bool = False) -> Document:
    name = shown_as or str(path)
    text = read_text(path, name)
    return parse_round_trip(text, name) if round_trip else parse(text, name)


def _model_at(model: type[BaseModel], loc: tuple[Any, ...]) -> type[BaseModel] | None:
    """The model class that the location `loc` (inside `model`) points into."""
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            continue
        candidates = _models_in(current.model_fields[part].annotation) if (
            isinstance(current, type) and issubclass(current, BaseModel) and part in current.model_fields) else []
        if not candidates:
            by_name = [m for m in _models_in(current) if m.__name__ == part] if current is not None else []
            if by_name:
                current = by_name[0]
                continue
            return current if isinstance(current, type) and issubclass(current, BaseModel) else None
        current = candidates[0] if len(candidates) == 1 else candidates
    if isinstance(current, list):
        return current[0]
    return current if isinstance(current, type) and issubclass(current, BaseModel) else None


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, list):
        return annotation
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    if isinstance(annotation, UnionType) or typing.get_origin(annotation) is not None:
        return list(dict.fromkeys(m for arg in typing.get_args(annotation) for m in _models_in(arg)))
    return []


def validate(document: Document, model: type[BaseModel]) -> Any:
    """Validate the document against `model`; every problem becomes one located finding."""
    try:
        return model.model_validate(document.data)
    except ValidationError as error:
        findings = []
        for problem in _unique(error.errors(), document.data):
            loc = tuple(problem["loc"])
            location = document.locate(loc)
            if problem["type"] == "extra_forbidden":
                key = str(loc[-1])
                owner = _model_at(model, loc[:-1])
                known = list(owner.model_fields) if owner else []
                hint = did_you_mean(key, known)
                findings.append(Finding("unknown-key", f"unknown key '{key}'" + (
                    f" (allowed here: {', '.join(known)})" if known and not hint else ""), location=location,
                    suggestion=hint))
            elif problem["type"] == "missing":
                findings.append(Finding("missing-key", f"'{loc[-1]}' is required here", location=location))
            else:
                field = ".".join(str(p) for p in loc) or "document"
                findings.append(Finding("wrong-value", f"{field}: {_plain(problem)} (got {_short(problem['input'])})",
                                        location=location))
        raise LoadFailure(findings) from None


def _real_path(data: Any, loc: tuple[Any, ...], names_a_key: bool) -> tuple[tuple[Any, ...], int | None]:
    """`loc` without the names pydantic gives union branches ('int', 'CharacterPick'): the parts
    that are keys or indexes in the document (and, when `names_a_key`, the last: a missing or
    unknown key). Also where the
    first branch name stood, if any: the place of the union the error belongs to."""
    path: list[Any] = []
    union_at, node = None, data
    for i, part in enumerate(loc):
        if isinstance(node, dict) and part in node or isinstance(node, list) and isinstance(part, int) \
                and 0 <= part < len(node):
            path.append(part)
            node = node[part]
        elif isinstance(node, dict) and names_a_key and i == len(loc) - 1:
            path.append(part)
        elif union_at is None:
            union_at = len(path)
    return tuple(path), union_at


def _unique(problems: list[dict[str, Any]], data: Any) -> list[dict[str, Any]]:
    """Pydantic reports a bad union value once per branch; keep one report per union, from the
    branch that came closest: one about the value (-1 is below 0) rather than its type, and the
    one that got deepest (a {character, joins} pick missing `joins`)."""
    kept: dict[tuple[Any, ...], tuple[tuple[bool, int], dict[str, Any]]] = {}
    for problem in problems:
        path, union_at = _real_path(data, tuple(problem["loc"]), problem["type"] in ("missing", "extra_forbidden"))
        place = path if union_at is None else path[:union_at]
        rank = (not _about_type(problem), len(path))
        if place not in kept or rank > kept[place][0]:
            kept[place] = (rank, {**problem, "loc": path})
    return [problem for _, problem in kept.values()]


WANTED = {  # pydantic's error types, said in a player's words: what the value should be
    "int": "a whole number", "float": "a number", "bool": "true or false", "string": "text",
    "dict": "a group of `name: value` lines", "model": "a group of `name: value` lines",
    "model_attributes": "a group of `name: value` lines", "list": "a list (one `- ` line per item)",
}
BOUNDS = {"greater_than": ("more than", "gt"), "greater_than_equal": ("at least", "ge"),
          "less_than": ("less than", "lt"), "less_than_equal": ("at most", "le"),
          "too_short": ("at least {} items", "min_length"), "too_long": ("at most {} items", "max_length")}


def _plain(problem: dict[str, Any]) -> str:
    """What is wrong with a value, in our words rather than the validation library's."""
    kind, context = problem["type"], problem.get("ctx") or {}
    if kind in BOUNDS:
        words, key = BOUNDS[kind]
        return "should be " + (words.format(context[key]) if "{}" in words else f"{words} {context[key]}")
    if kind in ("literal_error", "enum"):
        return f"should be one of {context.get('expected', 'the values this setting takes')}"
    if kind in ("value_error", "assertion_error") and "error" in context:
        return str(context["error"])  # our own validators' messages
    for name, wanted in WANTED.items():
        if kind.startswith(f"{name}_"):
            return f"should be {wanted}"
    return "is not a value this setting takes"


def _about_type(problem: dict[str, Any]) -> bool:
    return problem["type"].endswith(("_type", "_parsing"))


def _short(value: Any) -> str:
    if isinstance(value, TaggedScalar):  # the editor's reader keeps a tag it does not know: shown as written
        value = f"{value.tag.value.replace('tag:yaml.org,2002:', '!!')} {value.value}"
    text = repr(dict(value) if isinstance(value, dict) else list(value) if isinstance(value, list) else value)
    return text if len(text) <= 60 else text[:57] + "..."
