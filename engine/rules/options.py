"""Typed table options: one schema serves validation, the OLED menu and the host page.

An option is a choice among values, a whole number in a range, a seat, or a list checked by the game. A
default may depend on the number of seats. Every refusal names the option."""
from dataclasses import dataclass
from typing import Any, Callable

from .protocol import Rejected, is_seat, refuse

CHOICE, INTEGER, SEAT, LIST = "choice", "integer", "seat", "list"


def rows(*cells, count=None, flat=False):
    """How a LIST option is entered on a form: rows of cells (`count` rows, a number or a function of the seat
    count; None: as many as the host adds). A cell is `one_of(values)`, `a_seat()`, `number(low, high)`,
    `some_of(values)` (the ticked ones, as a list) or `how_many_of(values)` (how many of each, as a list with
    repeats). A flat list holds one cell's value per row."""
    return {"cells": cells, "count": count, "flat": flat}


def one_of(values):
    return {"kind": "choice", "values": list(values)}


def a_seat():
    return {"kind": "seat"}


def number(low, high):
    return {"kind": "number", "low": low, "high": high}


def some_of(values):
    return {"kind": "subset", "values": list(values)}


def how_many_of(values):
    return {"kind": "counts", "values": list(values)}


@dataclass(frozen=True)
class Option:
    name: str
    kind: str
    default: Any  # a value, or a function of the seat count
    choices: tuple = ()  # CHOICE: the values
    low: int = 0  # INTEGER: the range
    high: int = 0
    check: Callable | None = None  # LIST: check(value, seats) -> value, or raise Rejected
    shape: dict | None = None  # LIST: how a form enters it (`rows`)

    def default_for(self, seats):
        return self.default(seats) if callable(self.default) else self.default

    def values(self, seats):
        """The values the OLED menu cycles through (None for a list: it keeps its default there)."""
        if self.kind == CHOICE:
            return list(self.choices)
        if self.kind == INTEGER:
            return list(range(self.low, self.high + 1))
        if self.kind == SEAT:
            return list(range(seats))
        return None

    def validate(self, value, seats):
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

    def as_data(self, seats):
        found = {"name": self.name, "kind": self.kind, "default": self.default_for(seats),
                 "values": self.values(seats)}
        if self.shape:
            count = self.shape["count"]
            found["shape"] = {**self.shape, "cells": list(self.shape["cells"]),
                              "count": count(seats) if callable(count) else count}
        return found


def _shown(value):
    return value + 1 if isinstance(value, int) and not isinstance(value, bool) else repr(value)


def resolve(schema, seats, given):
    """The options of a table of `seats`: `given` checked, the rest at their defaults. An unknown option is
    an error, not ignored."""
    if not isinstance(given, dict):
        raise refuse("options_object")
    names = {option.name for option in schema}
    unknown = sorted(set(given) - names)
    if unknown:
        raise refuse("option_unknown", option=unknown[0])
    return {option.name: option.validate(given[option.name], seats) if option.name in given
            else option.default_for(seats) for option in schema}
