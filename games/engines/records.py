"""Quick copies of the engines' immutable records.

A search builds hundreds of thousands of states, each a frozen dataclass copied with a few
fields changed; `dataclasses.replace` checks its arguments and calls the class's
`__init__`, which sets every field through `object.__setattr__`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from operator import attrgetter
from typing import Any


def replacer[D](cls: type[D]) -> Callable[..., D]:
    """`dataclasses.replace` for a frozen dataclass with slots, `replacer(State)(s, turn=3)`,
    without its checks and its `__init__`, which sets every field through
    `object.__setattr__`: here each slot is set directly, in about half the time. The bots
    make hundreds of thousands of states a search. Only for a class whose every field is set
    by `__init__` and that has no `__post_init__` (nothing else would run)."""
    names = tuple(f.name for f in fields(cls))  # type: ignore[arg-type]
    if hasattr(cls, "__post_init__") or any(not f.init for f in fields(cls)):  # type: ignore[arg-type]
        raise TypeError(f"{cls.__name__} needs its __init__: use dataclasses.replace.")
    if "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__} has no slots: use dataclasses.replace.")
    if len(names) < 2:
        raise TypeError(f"{cls.__name__} has one field: make it anew.")
    values_of = attrgetter(*names)
    setters = tuple(getattr(cls, name).__set__ for name in names)
    index = {name: i for i, name in enumerate(names)}
    make = object.__new__

    def replace(obj: D, /, **changes: Any) -> D:
        values = list(values_of(obj))
        for name, value in changes.items():
            values[index[name]] = value
        made = make(cls)
        for set_slot, value in zip(setters, values, strict=True):
            set_slot(made, value)
        return made

    return replace
