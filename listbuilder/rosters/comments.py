"""Keeping a roster file's comments with the formation they were written above, when the editor
removes, adds or moves formations.

ruamel attaches the comment lines above item k+1 of a block sequence to the end of item k (the
token after its deepest last key, or the sequence's own slot for a flow item), and those above the
first item to the sequence itself. Here each item's lines are taken off into a record that moves
with the item, and written back where ruamel expects them for the new order."""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import CommentMark
from ruamel.yaml.tokens import CommentToken


@dataclass
class _Item:
    """A sequence's item with the comments that belong to it, moved with it."""

    value: Any
    own: CommentToken | None  # a flow item's end-of-line comment, kept in the sequence's slot
    above: str  # the comment lines above it, with their indentation


def _trailing_slot(seq: CommentedSeq, index: int) -> tuple[dict[Any, list[Any]], Any, int]:
    """Where the comment after item `index` lives: (a `ca.items`, its key, the place in the entry)."""
    node: Any = seq[index]
    if not isinstance(node, (CommentedMap, CommentedSeq)) or not node or node.fa.flow_style():
        return seq.ca.items, index, 0
    while True:
        last = next(reversed(node)) if isinstance(node, CommentedMap) else len(node) - 1
        child = node[last]
        if isinstance(child, (CommentedMap, CommentedSeq)) and child and not child.fa.flow_style():
            node = child
            continue
        return node.ca.items, last, 2 if isinstance(node, CommentedMap) else 0


def _take(slot: tuple[dict[Any, list[Any]], Any, int]) -> tuple[CommentToken | None, str]:
    """The comment in `slot`, removed from it: its end-of-line part (a token where it stood) and
    the lines after."""
    items, key, place = slot
    token = items.get(key, [None] * 4)[place]
    if token is None:
        return None, ""
    items[key][place] = None
    value = token.value if "\n" in token.value else token.value + "\n"
    end = value.index("\n") + 1
    return CommentToken(value[:end], CommentMark(token.column), None), value[end:]


def _put(slot: tuple[dict[Any, list[Any]], Any, int], end: CommentToken | None, following: str) -> None:
    """`end` (a token for the end of the line, or None) with the comment lines `following`."""
    text = (end.value if end is not None else "\n") + following
    if text.strip("\n") or text.count("\n") > 1:
        items, key, place = slot
        items.setdefault(key, [None] * 4)[place] = CommentToken(text, CommentMark(end.column if end else 0), None)


def _pairs(old: list[str], new: list[str]) -> list[int | None]:
    """For each new item, the old one it is: the same in the same order, else the same moved
    elsewhere, else one changed in its place; None for an added item."""
    pairs: list[int | None] = [None] * len(new)
    blocks = difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
    for tag, i1, _, j1, j2 in blocks:
        if tag == "equal":
            pairs[j1:j2] = range(i1, i1 + j2 - j1)
    paired = set(pairs)
    free = [i for i in range(len(old)) if i not in paired]
    for j, i in enumerate(pairs):
        moved = next((f for f in free if old[f] == new[j]), None) if i is None else None
        if moved is not None:
            pairs[j] = moved
            free.remove(moved)
    for tag, i1, i2, j1, j2 in blocks:
        for i, j in zip(range(i1, i2), range(j1, j2)):
            if tag == "replace" and pairs[j] is None and i in free:
                pairs[j] = i
                free.remove(i)
    return pairs


def merge_items(seq: CommentedSeq, new: list[Any], key: Callable[[Any], str], merge: Callable[[Any, Any], Any]) -> None:
    """Make `seq` hold `new` (plain data), reusing the old item (merged) for each new one that
    `key` says is the same or that took its place, each with its own comments."""
    first = seq.ca.comment[1] if seq.ca.comment and len(seq.ca.comment) > 1 and seq.ca.comment[1] else []
    items, above = [], "".join(" " * t.column + t.value.lstrip(" ") if i == 0 else t.value for i, t in enumerate(first))
    for index, value in enumerate(seq):
        items.append(_Item(value, None, above))
        slot = _trailing_slot(seq, index)
        end, above = _take(slot)
        if slot[0] is seq.ca.items:
            items[-1].own = end
        else:
            _put(slot, end, "")
    tail = above if items else ""  # the comments after the last item (none are taken from an empty list)
    kept = [_Item(merge(items[i].value, value), items[i].own, items[i].above) if i is not None
            else _Item(CommentedMap(value) if isinstance(value, dict) else value, None, "")
            for value, i in zip(new, _pairs([key(i.value) for i in items], [key(v) for v in new]))]
    seq.clear()
    seq.ca.items.clear()
    seq.extend(item.value for item in kept)
    for index, item in enumerate(kept):
        following = kept[index + 1].above if index + 1 < len(kept) else tail
        slot = _trailing_slot(seq, index)
        end = item.own if slot[0] is seq.ca.items else _take(slot)[0]
        _put(slot, end, following)
    if first and items:
        opening = kept[0].above if kept else ""
        first[0].value = opening.lstrip(" ") if opening else ""
        del first[1:]
