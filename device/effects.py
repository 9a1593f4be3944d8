"""What happens to the box's face, and what it asks for in turn (device/face.py): events in, effects out, all
plain values. A key is ("seat", seat, button) or ("host", name); the outcome of a press is told with its key."""
from dataclasses import dataclass
from typing import Any

# -- events: what the face hears, in the order it happened ------------------------------------------------


@dataclass(frozen=True)
class Pressed:
    """A key of the pads or the host panel was pressed (its tick already sounded as it was read)."""
    key: tuple


@dataclass(frozen=True)
class TableChanged:
    """The table moved to `moment` (engine/moment.py): the face steps it with what it may see of it (Seen).
    `order` counts the moments as the table made them."""
    moment: Any
    order: int = 0


@dataclass(frozen=True)
class LanguageChanged:
    language: str


@dataclass(frozen=True)
class Held:
    """Menu was still held when the power-off hold of its `press`-th press ran out."""
    press: int


@dataclass(frozen=True)
class Acted:
    """A seat's action was answered by the table (engine/table.py `Answer`): `key` is its pad's press, or None
    from its phone; `since` is the version the seat acted at."""
    seat: int
    key: tuple | None
    answer: Any
    since: int


@dataclass(frozen=True)
class HostDone:
    """A host action asked for by a key (`HostAct`) was done: `refusal` is the rules' Rejected, or None."""
    kind: str
    key: tuple
    refusal: Any = None


@dataclass(frozen=True)
class HostActed:
    """The host's phone did `kind` (new_game, undo, end): the menu closes and the cursors start over."""
    kind: str


@dataclass(frozen=True)
class CodeOpened:
    code: Any  # engine's pairing code: its `target`, `code` and `key`
    key: tuple


@dataclass(frozen=True)
class CodeOver:
    """A pairing code's time ran out."""
    code: Any


@dataclass(frozen=True)
class Joined:
    """A phone paired with `target` (("seat", n) or ("host",))."""
    target: tuple


@dataclass(frozen=True)
class PoweredOff:
    """The box was asked to power off: `why_not` None once it is going down, else a message id."""
    why_not: str | None
    key: tuple


@dataclass(frozen=True)
class Failed:
    """What a key asked for could not be done: `reason` "storage_full", "storage_failing" or "box_error"."""
    key: tuple
    reason: str


# -- effects: what the face asks the box to do -------------------------------------------------------------


@dataclass(frozen=True)
class Sound:
    name: str


@dataclass(frozen=True)
class Act:
    """A seat's pad press made `action` (or a Rejected it is refused with): the table answers it."""
    seat: int
    action: Any
    key: tuple
    since: int


@dataclass(frozen=True)
class Answered:
    """The outcome of the press on `key`, for whoever waits on it (the virtual box, the seat's phone)."""
    key: tuple
    outcome: dict


@dataclass(frozen=True)
class HostAct:
    """new_game (with `args`: game, seats, options), undo or end, asked by the host panel's `key`."""
    kind: str
    key: tuple
    args: tuple = ()


@dataclass(frozen=True)
class OpenCode:
    target: tuple
    key: tuple


@dataclass(frozen=True)
class CloseCode:
    """The code shown on the OLED leaves the screen: it ends (unless another has taken its place)."""
    code: Any


@dataclass(frozen=True)
class ChooseLanguage:
    language: str


@dataclass(frozen=True)
class PowerOff:
    key: tuple


@dataclass(frozen=True)
class WaitHeld:
    """Tell the face (`Held`) if Menu is still held once the power-off hold is over."""
    press: int
