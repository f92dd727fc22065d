"""YAML documents that remember where every key and item came from."""

from __future__ import annotations

import typing
from dataclasses import dataclass
from pathlib import Path as FsPath
from types import UnionType
from typing import Any

from pydantic import BaseModel, ValidationError
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError
from ruamel.yaml.reader import ReaderError

from ..core.findings import Finding, LoadFailure, Location, Path
from ..core.names import did_you_mean

MAX_BYTES = 1_000_000
MAX_DEPTH = 24


def round_trip_yaml() -> YAML:
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.width = 100
    return yaml


@dataclass
class Document:
    """A parsed YAML file: its data (ruamel's commented containers) and where it came from."""

    name: str  # the path as shown to people
    data: Any

    def locate(self, path: Path) -> Location:
        """The line and column of the deepest part of `path` that exists in the document."""
        node, line, column = self.data, None, None
        for part in path:
            if isinstance(node, CommentedMap) and part in node:
                line, column = node.lc.key(part)
                node = node[part]
            elif isinstance(node, CommentedSeq) and isinstance(part, int) and 0 <= part < len(node):
                line, column = node.lc.item(part)
                node = node[part]
            elif isinstance(node, (CommentedMap, CommentedSeq)):
                continue  # union branch names and the like in pydantic locations
            else:
                break
        if line is None and isinstance(self.data, CommentedMap):
            line, column = self.data.lc.line, self.data.lc.col
        return Location(self.name, None if line is None else line + 1, None if column is None else column + 1)


def parse(text: str, name: str) -> Document:
    """Parse YAML text; a syntax error, a duplicate key, anchors or excessive size or depth give a
    LoadFailure with the position."""
    if len(text.encode()) > MAX_BYTES:
        raise LoadFailure([Finding("file-too-large", f"the file is larger than {MAX_BYTES:,} bytes",
                                   location=Location(name))])
    try:
        data = round_trip_yaml().load(text)
    except ReaderError as error:  # a character YAML does not allow, e.g. a NUL byte
        before = text[:error.position]
        raise LoadFailure([Finding("yaml-syntax", f"YAML error: character {error.character!r} is not allowed",
                                   location=Location(name, before.count("\n") + 1,
                                                     len(before) - before.rfind("\n")))]) from None
    except MarkedYAMLError as error:
        mark, start = error.problem_mark or error.context_mark, error.context_mark
        problem = " ".join(str(p).splitlines()[0] for p in (error.context, error.problem) if p)
        if start is not None and mark is not None and start.line != mark.line:
            problem += f" (the construct began at line {start.line + 1}, column {start.column + 1})"
        raise LoadFailure([Finding("yaml-syntax", f"YAML error: {problem}",
                                   location=Location(name, mark.line + 1 if mark else None,
                                                     mark.column + 1 if mark else None))]) from None
    _check_shape(data, name)
    return Document(name, data)


def read(path: FsPath, shown_as: str | None = None) -> Document:
    name = shown_as or str(path)
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise LoadFailure([Finding("file-too-large", f"the file is {size:,} bytes; at most {MAX_BYTES:,}",
                                       location=Location(name))])
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise LoadFailure([Finding("unreadable", f"cannot read the file: {reason}", location=Location(name))]) from None
    return parse(text, name)


def _check_shape(data: Any, name: str) -> None:
    seen: set[int] = set()
    stack: list[tuple[Any, int, Path]] = [(data, 0, ())]
    while stack:
        node, depth, path = stack.pop()
        if not isinstance(node, (CommentedMap, CommentedSeq)):
            continue
        if id(node) in seen or getattr(node, "anchor", None) and node.anchor.value:
            raise LoadFailure([Finding("yaml-alias", "anchors and aliases (&, *) are not allowed here",
                                       location=Document(name, data).locate(path))])
        seen.add(id(node))
        if depth > MAX_DEPTH:
            raise LoadFailure([Finding("yaml-too-deep", f"nested more than {MAX_DEPTH} levels deep",
                                       location=Document(name, data).locate(path))])
        items = node.items() if isinstance(node, CommentedMap) else enumerate(node)
        stack.extend((value, depth + 1, path + (key,)) for key, value in items)


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
                findings.append(Finding("wrong-value", f"{field}: {problem['msg']} (got {_short(problem['input'])})",
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


def _about_type(problem: dict[str, Any]) -> bool:
    return problem["type"].endswith(("_type", "_parsing"))


def _short(value: Any) -> str:
    text = repr(dict(value) if isinstance(value, CommentedMap) else list(value) if isinstance(value, CommentedSeq)
                else value)
    return text if len(text) <= 60 else text[:57] + "..."
