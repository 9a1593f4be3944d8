"""Typed table options: one schema serves validation, the OLED menu and the host page.

An option is a choice among values, a whole number in a range, a seat, or a list checked by the game. A
default may depend on the number of seats. Every refusal names the option."""
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any, TypeAlias, TypedDict

from .protocol import JSON, LABEL, Message, Rejected, is_seat, refuse

Cell: TypeAlias = dict[str, JSON]  # one cell of a form's row (`one_of`, `number`, …)
Count: TypeAlias = int | Callable[[int], int] | None


class Shape(TypedDict):
    """How a form enters a LIST option (`rows`)."""
    cells: tuple[Cell, ...]
    count: Count
    flat: bool

CHOICE, INTEGER, SEAT, LIST = "choice", "integer", "seat", "list"


def rows(*cells: Cell, count: Count = None, flat: bool = False) -> Shape:
    """How a LIST option is entered on a form: rows of cells (`count` rows, a number or a function of the seat
    count; None: as many as the host adds). A cell is `one_of(values)`, `a_seat()`, `number(low, high)`,
    `some_of(values)` (the ticked ones, as a list) or `how_many_of(values)` (how many of each, as a list with
    repeats). A flat list holds one cell's value per row."""
    return {"cells": cells, "count": count, "flat": flat}


def one_of(values: Iterable[JSON]) -> Cell:
    return {"kind": "choice", "values": list(values)}


def a_seat() -> Cell:
    return {"kind": "seat"}


def number(low: int, high: int, *, from_one: bool = False) -> Cell:
    """A number from `low` to `high`; `from_one`: a place people count from 1 (an island), 0 in the log."""
    return {"kind": "number", "low": low, "high": high, **({"from_one": True} if from_one else {})}


def some_of(values: Iterable[JSON]) -> Cell:
    return {"kind": "subset", "values": list(values)}


def how_many_of(values: Iterable[JSON]) -> Cell:
    return {"kind": "counts", "values": list(values)}


@dataclass(frozen=True)
class Option:
    name: str
    kind: str
    default: JSON | Callable[[int], JSON]  # a value, or a function of the seat count
    choices: tuple[JSON, ...] = ()  # CHOICE: the values
    low: int = 0  # INTEGER: the range
    high: int = 0
    check: Callable[[list[JSON], int], JSON] | None = None  # LIST: check(value, seats) -> value, or Rejected
    shape: Shape | None = None  # LIST: how a form enters it (`rows`)

    def default_for(self, seats: int) -> JSON:
        return self.default(seats) if callable(self.default) else self.default

    def values(self, seats: int) -> list[JSON] | None:
        """The values the OLED menu cycles through (None for a list: it keeps its default there)."""
        if self.kind == CHOICE:
            return list(self.choices)
        if self.kind == INTEGER:
            return [*range(self.low, self.high + 1)]
        if self.kind == SEAT:
            return [*range(seats)]
        return None

    def validate(self, value: JSON, seats: int) -> JSON:
        if self.kind == LIST:
            if not isinstance(value, list):
                raise refuse("option_list", option=self.name, value=value)
            try:
                return self.check(value, seats) if self.check else value
            except Rejected as e:
                raise refuse("option_bad", option=self.name, why=e.message) from None
        if self.kind == SEAT and not is_seat(value, seats):
            raise refuse("option_seat", option=self.name, seats=seats, value=_shown(value))
        if self.kind == INTEGER and (not isinstance(value, int) or isinstance(value, bool)
                                     or not self.low <= value <= self.high):
            raise refuse("option_number", option=self.name, low=self.low, high=self.high, value=value)
        if self.kind == CHOICE and value not in self.choices:
            raise refuse("option_choice", option=self.name, choices=", ".join(map(str, self.choices)), value=value)
        return value

    def as_data(self, seats: int) -> dict[str, object]:
        found: dict[str, object] = {"name": self.name, "kind": self.kind, "default": self.default_for(seats),
                 "values": self.values(seats)}
        if self.shape:
            count = self.shape["count"]
            found["shape"] = {**self.shape, "cells": list(self.shape["cells"]),
                              "count": count(seats) if callable(count) else count}
        return found


def _shown(value: JSON) -> JSON:
    return value + 1 if isinstance(value, int) and not isinstance(value, bool) else repr(value)


def resolve(schema: tuple[Option, ...], seats: int, given: JSON, domain: str) -> dict[str, Any]:
    """The options of a table of `seats` of the game whose catalog is `domain`: `given` checked, the rest at
    their defaults. An unknown option is an error, not ignored. Each value is of its option's kind, checked: a
    game reads it as that kind. A refusal names the option as its field is labelled (`label`)."""
    if not isinstance(given, dict):
        raise refuse("options_object")
    names = {option.name for option in schema}
    unknown = sorted(set(given) - names)
    if unknown:
        raise refuse("option_unknown", option=unknown[0])
    found = {}
    for option in schema:
        try:
            found[option.name] = (option.validate(given[option.name], seats) if option.name in given
                                  else option.default_for(seats))
        except Rejected as e:
            raise Rejected(replace(e.message, params={**e.message.params, "option": label(domain, option.name)}),
                           e.rule) from None
    return found


def label(domain: str, name: str) -> Message:
    """An option as the host's form labels it (its `phone` word, else its `box` word; the name itself when the
    catalog has neither): what a refusal about it calls it."""
    return Message(domain, name, context=LABEL)
