"""The one port through which the web side reaches the box: everything a blueprint may ask of it or tell it.
The box implements it (device/web_port.py) and the composition root hands it to `create_app`; the web side
imports nothing of the device, and reaches no part of the box (its table, pairing or display) but through this.
"""
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, TypeVar

from engine.moment import Moment

JSON = Any
T = TypeVar("T")
Viewer = int | str  # a seat, or "public"
Target = tuple[str, ...]  # ("seat", n) or ("host",)


class BoxPort(Protocol):
    """The box as the web side sees it."""

    host_buttons: tuple[str, ...]  # the host panel's buttons, in order
    power_off_hold: float  # seconds Menu is held before the box asks to power off

    # -- the table, read --------------------------------------------------------------------------------
    @property
    def version(self) -> int: ...
    @property
    def game(self) -> str | None: ...
    @property
    def game_id(self) -> int | None: ...
    @property
    def seats(self) -> int: ...
    @property
    def storage(self) -> str: ...  # "ok"; "full" or "failing" while the journal takes no writes; "lost" (`seen`)
    def seen(self, version: int) -> None:
        """A phone at the table was shown `version`: a later one than the box's tells that the journal lost
        acknowledged actions, which the box then says on every phone (storage "lost") until the next game."""
    def snapshot(self, read: Callable[[int, Callable[[Viewer], dict[str, JSON]]], T]) -> T:
        """read(version, view_of) on one moment of the table, read without its lock: every view view_of(viewer)
        gives is at `version`. Returns what `read` returns."""
    def subscribe(self, listener: Callable[[Moment], None]) -> None:
        """listener(moment) on every change of the table, in order, as it is made (under the table's lock: it
        only queues the moment, and renders nothing)."""

    # -- the box --------------------------------------------------------------------------------------
    def subscribe_presses(self, listener: Callable[[tuple[Any, ...], dict[str, JSON]], None]) -> None:
        """listener(key, outcome) once each press of a pad or host key is done: a refused pad press's outcome
        carries its `refusal` (the web side tells that seat's phone alone)."""
    @property
    def wired_seats(self) -> int: ...
    @property
    def language(self) -> str: ...
    @property
    def display_status(self) -> str: ...
    @property
    def frame(self) -> int: ...  # counts the OLED's frames
    def subscribe_display(self, listener: Callable[[Any], None]) -> None: ...

    # -- inputs ---------------------------------------------------------------------------------------
    def seat_act(self, seat: int, action: JSON) -> dict[str, JSON]: ...
    def new_game(self, game: JSON, seats: JSON, options: JSON = None) -> None: ...
    def undo(self) -> None: ...
    def end_game(self) -> None: ...
    def set_language(self, language: str) -> None: ...

    # -- phones ---------------------------------------------------------------------------------------
    def pair_code(self, target: Target) -> Any: ...  # its `code`, and its link's `key`
    @property
    def pairing_window(self) -> float: ...
    def pair(self, code: str, address: str | None) -> tuple[Target, str]: ...  # a typed code
    def pair_link(self, key: str) -> tuple[Target, str]: ...  # the key of a code's link (its QR code)
    def code_link(self, key: str) -> str: ...  # the link of a code's QR code, at the box's address
    def qr_code(self, text: str) -> list[str] | None:
        """The QR code the OLED would draw of `text`, rows of "1" (dark) and "0"; None when it does not fit."""
    def seat_of(self, token: str | None) -> int | None: ...  # in the game in play
    def is_host(self, token: str | None) -> bool: ...
    def lost(self, token: str | None) -> Target | None: ...
    def has_phone(self, seat: int) -> bool: ...

    # -- records --------------------------------------------------------------------------------------
    def export(self, game_id: object = None) -> str: ...
    def history(self) -> list[dict[str, JSON]]: ...
    def backup(self, path: Path) -> None: ...
