"""Models built back from JSON this program wrote from validated models (the shipped data's cache,
the installed 40k data's faction parts), without validating them a second time: that means
building every model's validator, which costs more than the rest of a check. Callers trust the
JSON only once its hash checks out; tests/test_loading.py shows that what this builds equals what
validating gives on all the shipped data, tests/test_wh40k_rosters.py on every faction's part."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import is_dataclass
from types import UnionType
from typing import Annotated, Any, Union, get_args, get_origin, get_type_hints

from pydantic import BaseModel

set_attribute = object.__setattr__  # as pydantic sets a frozen model's own attributes


def trusted(kind: Any, value: Any) -> Any:
    """`value` as `kind`. A shape `kind` cannot have raises ValueError, TypeError, KeyError or
    AttributeError."""
    return _builder(kind)(value)


def _same(value: Any) -> Any:
    return value


@functools.cache
def _builder(kind: Any) -> Callable[[Any], Any]:
    """How to build a `kind` from its JSON, worked out once per type: most values (names, numbers,
    lists of names) are already what the model holds, and only models and the containers holding
    them are walked."""
    if isinstance(kind, type) and issubclass(kind, BaseModel):
        return _model_builder(kind)
    if isinstance(kind, type) and is_dataclass(kind):
        return lambda value: kind(**{name: _builder(_hints(kind)[name])(item) for name, item in value.items()})
    origin, arguments = get_origin(kind), get_args(kind)
    if origin is Annotated:
        return _builder(arguments[0])
    if origin is list:
        item = _builder(arguments[0])
        return _same if item is _same else lambda value: [item(v) for v in value]
    if origin is dict:  # JSON keys are text: a dict[int, ...]'s keys are read back as numbers
        key, item = int if arguments[0] is int else _same, _builder(arguments[1])
        if key is _same and item is _same:
            return _same
        return lambda value: {key(k): item(v) for k, v in value.items()}
    if origin in (Union, UnionType):
        shaped = {shape: _builder(a) for a in arguments if (shape := _shape(a)) is not None}
        if len(shaped) != sum(_shape(a) is not None for a in arguments):
            raise TypeError(f"{kind}: two kinds held alike in JSON")
        return (_same if all(b is _same for b in shaped.values())
                else lambda value: shaped.get(type(value), _same)(value))
    return _same  # text, a number, a truth value, a Literal


def _model_builder(kind: type[BaseModel]) -> Callable[[dict[str, Any]], BaseModel]:
    """A model set up as pydantic's `model_construct` sets it up, without its per-field
    bookkeeping (aliases, defaults): the JSON holds every field by its name, and these models have
    no aliases, private attributes or post-init (else `model_construct` itself is used)."""
    fields = kind.model_fields
    if kind.__private_attributes__ or kind.__pydantic_post_init__ or any(
            f.alias or f.validation_alias for f in fields.values()):
        return lambda value: kind.model_construct(**{name: _builder(_hints(kind)[name])(item)
                                                     for name, item in value.items()})
    walked: list[tuple[str, Callable[[Any], Any]]] | None = None  # the fields whose JSON becomes something else

    def build(value: dict[str, Any]) -> BaseModel:
        nonlocal walked
        if walked is None:  # worked out on first use: a model may hold models of its own kind
            walked = [(name, make) for name in fields if (make := _builder(_hints(kind)[name])) is not _same]
        if value.keys() != fields.keys():
            raise KeyError(f"{kind.__name__}: fields {sorted(value)} are not {sorted(fields)}")
        for name, make in walked:
            value[name] = make(value[name])
        model = kind.__new__(kind)
        set_attribute(model, "__dict__", value)
        set_attribute(model, "__pydantic_fields_set__", set(value))
        set_attribute(model, "__pydantic_extra__", None)
        set_attribute(model, "__pydantic_private__", None)
        return model

    return build


@functools.cache
def _hints(kind: type) -> dict[str, Any]:
    """Each field's type: as pydantic resolved it when the model was defined, else from its annotations."""
    if issubclass(kind, BaseModel) and kind.__pydantic_fields_complete__:
        return {name: field.annotation for name, field in kind.model_fields.items()}
    return get_type_hints(kind, include_extras=True)


def _shape(kind: Any) -> type | None:
    """What JSON holds a `kind` as: dict (a model, a dataclass, a dict), list, or neither."""
    origin = get_origin(kind) or kind
    if origin is Annotated:
        return _shape(get_args(kind)[0])
    if origin is dict or (isinstance(origin, type) and (issubclass(origin, BaseModel) or is_dataclass(origin))):
        return dict
    return list if origin is list else None
