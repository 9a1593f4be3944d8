"""The table at one version, as every reader sees it: a value the table hands out whole at each change.

The rules are pure and their states never change once made (engine/record.py), so a moment holds the state itself,
not a copy: reading a moment takes no lock, and no change made after it can reach it. Each viewer's view is
rendered once, the first time anyone asks, and kept on the moment for every other reader of that version."""
from __future__ import annotations  # the type checker's names (Rules) are imported for it alone

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from .rules import TERMINAL
from .rules.protocol import Action, Actors, Prompt, View, Viewer

if TYPE_CHECKING:
    from .games import Rules


@dataclass(frozen=True, eq=False)
class Moment:
    """The table at one version, immutable: all a reader needs, read without the table's lock."""
    version: int
    game_id: int | None
    rules: Rules[Any] | None  # None without a game
    state: Any  # the game's state with a held pick locked in (None without a game)
    chance: dict[str, Any] | None  # the public part of chance: its commitment, and its seed once the game is over
    undone: int | None  # the seat whose action an undo took back at this version, else None
    fault: str | None  # "full" or "failing" while the journal refuses writes
    lost: tuple[int, int] | None  # (the journal's last version, the one a phone had seen) when actions were lost
    game: str | None = None
    seats: int = 0
    # viewer -> its view, and seat -> its prompt, rendered on first asking. Two readers racing may both render
    # one; the rules are pure, so they render the same, and either is kept.
    _views: dict[Viewer, View] = field(default_factory=dict, init=False, repr=False)
    _prompts: dict[int, Prompt | None] = field(default_factory=dict, init=False, repr=False)

    @cached_property
    def over(self) -> bool:
        """The game in play has ended by its rules (its seed is public then)."""
        return self.rules is not None and self.rules.current_actors(self.state) == TERMINAL

    def view(self, viewer: Viewer = "public") -> View:
        """What `viewer` sees at this version; a seat's view carries its prompt (what it may do now). Rendered
        once; each reader gets a copy of its own to add to (what is in it is shared: never change that)."""
        shown = self._views.get(viewer)
        if shown is None:
            shown = self._views.setdefault(viewer, self._render(viewer))
        return dict(shown)

    def _render(self, viewer: Viewer) -> View:
        if self.rules is None:
            return {"game": None, "over": False, "result": None, "version": self.version}
        shown = self.rules.view(self.state, viewer)
        shown["chance"] = dict(self.chance or {})
        if isinstance(viewer, int):
            prompt = self.prompt(viewer)
            shown["prompt"] = prompt.as_data() if prompt else None
        if self.undone is not None:  # said to everyone: whose action was taken back
            shown["undone"] = {"seat": self.undone}
        return {**shown, "version": self.version}

    def prompt(self, seat: int) -> Prompt | None:
        """What `seat` may do now, or None (no game, or nothing to do)."""
        if self.rules is None:
            return None
        if seat not in self._prompts:
            self._prompts.setdefault(seat, self.rules.prompt(self.state, seat))
        return self._prompts[seat]

    def actors(self) -> Actors:
        """Who may act now: the seats, CHANCE or TERMINAL (the table draws chance at once, so seats or the end)."""
        return self.rules.current_actors(self.state) if self.rules is not None else TERMINAL

    def legal_actions(self, seat: int | str) -> list[Action]:
        """The actions `seat` may take now."""
        return self.rules.legal_actions(self.state, seat) if self.rules is not None else []
