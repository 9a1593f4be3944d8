"""What the blueprints share, kept where Flask keeps an application's extensions: `app.extensions["arbitro"]`, set
once by the app factory and read with `services()`."""
from dataclasses import dataclass
from typing import Any, Protocol

from flask import Flask, current_app

from .port import BoxPort
from .streams import Changes

KEY = "arbitro"


class VirtualBox(Protocol):
    """What the virtual box's page asks of the virtual box (device/virtual_box.py, mock mode only)."""

    def press(self, seat: int | None = None, button: int | None = None, host: str | None = None,
              hold: float | None = None) -> dict[str, Any] | None: ...
    def pad_labels(self, seat: int) -> list[str]: ...
    def oled_png(self) -> bytes: ...


@dataclass(frozen=True)
class Services:
    box: BoxPort  # all the web side may ask of the box
    changes: Changes  # the change feed every phone waits on
    virtual: VirtualBox | None  # the virtual box, in mock mode


def services(app: Flask | None = None) -> Services:
    """The services of `app` (by default the app of the request being answered)."""
    found: Services = (app or current_app).extensions[KEY]
    return found
