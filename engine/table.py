"""The running table: inputs in, views out.

Pad presses and phone requests become actions; chance is drawn from each game's committed seed (engine/chance.py:
the commitment is public from the start, the seed is revealed at the end); every applied line is journaled
before the input is acknowledged. One lock, the table's own, serialises every input, so button threads and web
threads never race. Each change hands out the table as it now stands, a `Moment` (engine/moment.py): an
immutable value that every reader (the OLED, the phones, the host) reads without the lock, so a reader never
holds up a press and a press never waits for a reader's rendering.
"""
from __future__ import annotations  # the type checker's names (Rules) are imported for it alone

import json
import logging
import secrets
import threading
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from random import Random
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, TypeVar, cast

from .chance import Committed, Dice, Unverifiable, new_seed
from .journal import DamagedGame, Journal, JournalError
from .moment import Moment
from .record import UNDO, GameRecord, header
from .rules import Rejected
from .rules.protocol import JSON, Action, Actors, Prompt, View, Viewer, refuse
from .rules import picks as secret
from .timers import Scheduler

log = logging.getLogger(__name__)

Schedule = Callable[[float, Callable[[], object]], Callable[[], None]]  # (delay, callback) -> cancel
T = TypeVar("T")

if TYPE_CHECKING:
    from .games import Rules


RETRY = 2.0  # seconds between tries to write a held pick's reveal the journal refused


class Held(NamedTuple):
    """The pick that completed a round, held for the reveal delay (journaled, not yet applied)."""
    action: Action
    cancel: Callable[[], None]  # of the timer that reveals it
    due: bool = False  # the delay is over and the reveal could not be written yet: the round is closed


class Answer(NamedTuple):
    """What the table made of a seat's input (`Table.answer`)."""
    status: str  # "applied", "held", "undone" or "rejected"
    refusal: Rejected | None  # why it was rejected
    secret: bool  # the outcome is the seat's alone: no public channel may tell it


class Table:
    def __init__(self, journal: Journal | None = None, *, random: Random | None = None,
                 seeds: Callable[[], bytes] = new_seed, reveal_delay: float = 0.0, schedule: Schedule | None = None,
                 now: Callable[[], datetime] = lambda: datetime.now(timezone.utc)) -> None:
        """Each game's draws come from a seed of `seeds()` (32 bytes), committed to at its start; given a plain
        `random` source instead (loaded dice in mock mode, tests), they commit to nothing and say so.
        `schedule(delay, callback)` runs callback later and returns a cancel function (the box's one
        Scheduler, or the tests' clock; a Scheduler of the table's own, closed with it, when None). A pick that
        completes a round is held for `reveal_delay` seconds, during which every seat may still change its pick.
        `now()` dates each game's start, for the history."""
        self._lock = threading.RLock()  # every input's: re-entrant, as undo is an act too
        self._journal = journal or Journal()
        self._random = random
        self._seeds = seeds
        self.reveal_delay = reveal_delay
        self._own_scheduler: Scheduler | None = None  # closed with the table
        if schedule is None:
            schedule = self._own_scheduler = Scheduler()
        self._schedule = schedule
        self._now = now
        self._finished: dict[int, dict[str, JSON]] = {}  # game id -> its history entry: it never changes
        self._subscribers: list[Callable[[Moment], object]] = []
        self._pending: Held | None = None  # a held round-completing pick
        # The seat whose action the last undo took back, and the version it made: that version's views say so
        self._undone: tuple[int, int] | None = None
        self._undoing: int | None = None
        self._fault: str | None = self._journal.fault  # "full" or "failing" while the journal refuses writes
        # (the last version the journal held, the version a phone had seen) when the journal lost acknowledged
        # actions (`seen`): said on every phone until the next game
        self._lost: tuple[int, int] | None = None
        self._game_id: int | None
        self._record: GameRecord | None
        self._dice: Dice | None
        self._game_id, self._record, self._dice = self._load()
        self._version = self._journal.version
        with self._lock:
            self._resume_held()
            self._moment = self._now_standing()

    def _load(self) -> tuple[int, GameRecord, Dice] | tuple[None, None, None]:
        last = self._journal.last_game()
        if last is None or last[3]:
            return None, None, None
        game_id, table_line, lines, _ = last
        return game_id, self._replayed(game_id, table_line, lines), self._dice_of(game_id, table_line)

    def _dice_of(self, game_id: int, table_line: dict[str, JSON]) -> Dice:
        """Where game `game_id` draws from: its seed, checked against the commitment it published."""
        seed = self._journal.seed(game_id)
        if seed is None:
            return Unverifiable(self._random or secrets.SystemRandom())
        dice = Committed.of(seed, table_line)
        chance = table_line.get("chance")
        if not isinstance(chance, dict) or dice.commitment != chance.get("commitment"):
            raise DamagedGame(self._journal.path, f"game {game_id}: its seed does not match the commitment it "
                              "published")
        return dice

    def _replayed(self, game_id: int, table_line: dict[str, JSON], lines: list[Action]) -> GameRecord:
        """Game `game_id` rebuilt from its journaled lines; a line the rules refuse (its table line included)
        is a damaged journal, said by name."""
        n = 1
        try:
            record = GameRecord(table_line)
            for n, line in enumerate(lines, start=2):
                record.apply(line)
        except Rejected as e:
            raise DamagedGame(self._journal.path, f"game {game_id}, line {n}: {e}") from None
        return record

    def history(self) -> list[dict[str, JSON]]:
        """The games the journal keeps, newest first: id, game, seats, when it started, and how it stands —
        in play, over (with its result) or ended by the host before its end. A game no longer in play is
        replayed once, off the table's lock (no press waits for it), and remembered: it never changes."""
        with self._lock:
            ids = self._journal.games()
            known = {i: self._history_entry(i, self._record) for i in ids
                     if i in self._finished or i == self._game_id}
        for game_id in ids:
            if game_id not in known:
                known[game_id] = self._history_entry(game_id, None)
        with self._lock:
            self._finished.update({i: e for i, e in known.items() if not e["playing"]})
        return [known[i] for i in ids]

    def games_kept(self) -> list[int]:
        """The ids of every game the journal keeps, newest first."""
        with self._lock:
            return self._journal.games(newest=-1)

    def backup(self, target: str | Path) -> None:
        """Write a backup of every game no longer in play to the file `target` (engine/backup.py): the game in
        play, with its secrets and its seed, stays on the box until it is over. Only the question of which game
        is in play takes the table's lock: the copy reads the journal on a connection of its own, so no press
        waits for it (a game started meanwhile is left out too)."""
        with self._lock:
            playing = self._record is not None and not self._record.is_over
            in_play = self._game_id if playing else None
            newest = max(self._journal.games(1), default=0)
        self._journal.backup(target, leave_out=[in_play] if in_play else [], newer_than=newest)

    def _history_entry(self, game_id: int, current: GameRecord | None) -> dict[str, JSON]:
        """Game `game_id`'s history entry: `current` is the record of the game in play (under the table's lock),
        None for a game replayed from the journal."""
        if game_id in self._finished:
            return self._finished[game_id]
        found = self._journal.game(game_id)
        assert found is not None  # an id the journal listed
        _, table_line, lines, ended, started = found
        record = (current if current is not None and game_id == self._game_id else
                  self._replayed(game_id, table_line, lines))
        return {"id": game_id, "game": table_line["game"], "seats": table_line["seats"], "started": started,
                "playing": record is current, "over": record.is_over, "ended": ended and not record.is_over,
                "result": cast(JSON, record.rules.result(record.state))}

    def _resume_held(self) -> None:
        """A pick held for the reveal delay when the power went: it is held again, never lost."""
        held = self._journal.held(self._game_id) if self._record and self._game_id else None
        if held is None or self._record is None:
            return
        try:
            self._record.check(held)
        except Rejected as e:
            raise DamagedGame(self._journal.path, f"game {self._game_id}: its held pick {held} no longer fits "
                              f"({e})") from None
        self._pending = Held(held, self._schedule(self.reveal_delay, self._reveal_held))

    # -- what the table shows: its latest moment, read without the lock -----------------------------------------
    @property
    def moment(self) -> Moment:
        """The table as it stands: replaced whole, under the lock, at every change."""
        return self._moment

    def _now_standing(self) -> Moment:
        """Under the lock: the moment the table is at now."""
        record, dice = self._record, self._dice
        undone = self._undone[1] if self._undone and self._undone[0] == self._version else None
        if record is None or dice is None:
            return Moment(self._version, None, None, None, None, undone, self._fault, self._lost)
        state = secret.hold(record.state, self._pending.action) if self._pending else record.state
        return Moment(self._version, self._game_id, record.rules, state, dice.public(revealed=record.is_over),
                      undone, self._fault, self._lost, game=cast(str, record.header["game"]),
                      seats=cast(int, record.header["seats"]))

    @property
    def version(self) -> int:
        return self._moment.version

    @property
    def game(self) -> str | None:
        return self._moment.game

    @property
    def game_id(self) -> int | None:
        """The journal's number of the current game: phones' seat tokens are good for this game only."""
        return self._moment.game_id

    @property
    def fault(self) -> str | None:
        """Why the journal refuses writes, "full" or "failing" (nothing is acknowledged until it takes them); None."""
        return self._moment.fault

    @property
    def lost(self) -> tuple[int, int] | None:
        return self._moment.lost

    @property
    def state(self) -> Any:
        """The game's whole state as the table holds it (a held pick locked in), every secret included: for the
        engine's tools and tests alone. What people see is drawn from view() alone."""
        return self._moment.state

    @property
    def rules(self) -> Rules[Any] | None:
        """The current game's rules module (None without a game)."""
        return self._moment.rules

    def actors(self) -> Actors:
        """Who may act now: the seats, CHANCE or TERMINAL (the table draws chance at once, so seats or the end)."""
        return self._moment.actors()

    @property
    def seats(self) -> int:
        return self._moment.seats

    def snapshot(self, read: Callable[[int, Callable[[Viewer], View]], T]) -> T:
        """read(version, view_of) on one moment: every view `view_of(viewer)` gives is at `version`. Returns
        what `read` returns."""
        moment = self._moment
        return read(moment.version, moment.view)

    def view(self, viewer: Viewer = "public") -> View:
        """The view of `viewer`; a seat's view carries its prompt (what it may do now)."""
        return self._moment.view(viewer)

    def prompt(self, seat: int) -> Prompt | None:
        """What `seat` may do now (a Prompt), or None."""
        return self._moment.prompt(seat)

    def legal_actions(self, seat: int | str) -> list[Action]:
        """The actions `seat` may take now."""
        return self._moment.legal_actions(seat)

    @property
    def can_undo(self) -> bool:
        with self._lock:
            return bool(self._pending or (self._record and self._record.can_undo))

    def export(self, game_id: object = None) -> str:
        """A game as a JSON Lines game log (the current one, or `game_id` from the history): the whole log once
        it is over; before (in play, or ended by the host mid-game), only what every player may already know. A
        past game is replayed off the table's lock: no press waits for its download."""
        with self._lock:
            log = self._in_play_log(game_id)
        if log is not None:
            return log
        if game_id is None:
            raise refuse("no_game")
        found = self._journal.game(game_id)
        record = found and self._replayed(found[0], found[1], found[2])
        with self._lock:  # a game started meanwhile is in play: its log keeps only what every player may know
            log = self._in_play_log(game_id)
        if log is not None:
            return log
        if record is None:
            raise refuse("no_such_game", game=game_id)
        # over, or ended by the host: no draw is left to come, so the seed is revealed for checking
        return self._log(record, cast(int, game_id), revealed=True)

    def _in_play_log(self, game_id: object) -> str | None:
        """Under the table's lock: the log of the game in play when `game_id` names it (or is None), else None."""
        if self._record is None or self._game_id is None or game_id not in (None, self._game_id):
            return None
        return self._log(self._record, self._game_id, revealed=self._record.is_over)

    def _log(self, record: GameRecord, game_id: int, revealed: bool) -> str:
        """The log of `record` (game `game_id`), its seed revealed when `revealed`."""
        lines = record.export_lines()
        chance = lines[0].get("chance")
        if isinstance(chance, dict) and "commitment" in chance and revealed:
            seed = self._journal.seed(game_id)
            lines[0] = {**lines[0], "chance": {**chance, "seed": seed.hex() if seed else None}}
        return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)

    def subscribe(self, callback: Callable[[Moment], object]) -> Callable[[], None]:
        """callback(moment) after every change, in order, called under the table's lock: the press waits for
        it, so it only takes the moment (a queue, a flag) and renders nothing. Returns the way to unsubscribe
        (once or more: a part closed twice)."""
        with self._lock:
            self._subscribers.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._subscribers:
                    self._subscribers.remove(callback)
        return unsubscribe

    def _changed(self, version: int) -> None:
        self._version = max(self._version, version)
        self._undone = None if self._undoing is None else (self._version, self._undoing)
        self._notify()

    def _notify(self) -> None:
        """Under the lock: the moment the table is at now, handed to every subscriber."""
        self._moment = moment = self._now_standing()
        for callback in list(self._subscribers):
            try:
                callback(moment)
            except Exception:  # the change is journaled: a broken listener must not undo its acknowledgement
                log.exception("a table subscriber failed")

    # -- inputs -----------------------------------------------------------------------------------------
    def new_game(self, game: JSON, seats: JSON, options: JSON = None) -> None:
        """Start a game, ending the one in play: both in one journal write, or neither."""
        with self._lock:
            table_line = header(game, seats, options)
            record = GameRecord(table_line)  # raises Rejected on a bad game, seat count or option, before any
            # seed is drawn or committed to (a name that is no game may not even encode: a lone surrogate)
            dice = Unverifiable(self._random) if self._random else Committed(self._seeds(), table_line, mixes=True)
            table_line["chance"] = record.header["chance"] = dice.public(revealed=False)
            lines = self._sample_chance(record, dice)
            game_id, version = self._journaled(lambda: self._journal.start_game(
                table_line, lines, end=self._game_id if self._record is not None else None,
                at=self._now().isoformat(timespec="seconds"), seed=dice.seed))
            self._drop_pending()
            self._game_id, self._record, self._dice = game_id, record, dice
            self._lost = None
            self._changed(version)

    def seen(self, version: int) -> None:
        """A phone at the table was shown `version`, which this table has not reached: the journal lost actions it
        had acknowledged (its log cut short or damaged where nothing on the card could tell; docs/architecture.md).
        The table says so (`lost`, its subscribers told) and moves its version past the one seen, so that no phone
        takes a later view for one it already has."""
        with self._lock:
            if version <= self._version or self._lost:  # told once a game: a phone cannot keep moving it on
                return
            before = self._version
            try:
                moved = self._journaled(lambda: self._journal.advance(version + 1))
            except JournalError:
                return  # the fault is told; the next phone that comes back tells this again
            log.error("a phone had seen version %d of the table, which the journal ended at %d: the actions "
                      "acknowledged in between were lost with the journal's log", version, before)
            self._lost = (before, version)
            self._changed(moved)

    def end_game(self) -> None:
        with self._lock:
            game_id = self._require_id()
            version = self._journaled(lambda: self._journal.end_game(game_id))
            self._drop_pending()
            self._game_id = self._record = self._dice = None
            self._changed(version)

    def _journaled(self, write: Callable[[], T], rollback: Callable[[], None] | None = None) -> T:
        """write() to the journal. When it fails, `rollback()` first puts back what the table changed before the
        write (so no subscriber sees it), then the table says so (`fault`, its subscribers told) and the error
        goes up: nothing that was not written is acknowledged. The next write that works clears it, told with
        the change it makes (every caller makes one): the table's state may already be past its version."""
        try:
            done = write()
        except JournalError as e:
            if rollback is not None:
                rollback()
            fault = "full" if e.full else "failing"
            if fault != self._fault:
                self._fault = fault
                log.error("%s", e)
                self._notify()
            raise
        if self._fault:
            self._fault = None
            log.info("the journal takes writes again")
        return done

    def act(self, action: JSON) -> Literal["applied", "held", "undone"]:
        """Apply a named action (a game-log line); returns 'applied' or 'held' (round complete, waiting
        out the reveal delay). Raises Rejected and changes nothing when the rules refuse it."""
        with self._lock:
            record, game_id = self._require_game(), self._require_id()
            if not isinstance(action, dict):
                raise refuse("not_an_object")
            if action == UNDO:
                return self.undo()
            if self._pending and self._pending.due:  # no pick changes once the reveal is due, written or not
                raise refuse("reveal_due")
            if self._pending and action.get("seat") == self._pending.action.get("seat"):
                record.check(action)  # the held seat changes its pick
                version = self._journaled(lambda: self._journal.hold(game_id, action))
                self._pending = Held(action, self._pending.cancel)
                self._changed(version)
                return "held"
            if not self._pending and self.reveal_delay > 0 and secret.completes_round(record.state, action):
                record.check(action)
                version = self._journaled(lambda: self._journal.hold(game_id, action))  # acknowledged is
                self._pending = Held(action, self._schedule(self.reveal_delay, self._reveal_held))  # journaled
                self._changed(version)
                return "held"
            self._commit(action)
            return "applied"

    def answer(self, seat: int, action: JSON | Rejected, *, pad: bool = False) -> Answer:
        """`seat`'s input: `action` from its pad (`pad`) or its phone, or the refusal the caller already found (a
        pad button that means nothing now). Whose the outcome is, is decided by the seat's prompt as the input
        is taken: a secret pick's, or what a phone sends where it is offered the seat's private choices (a
        refusal could name what the seat holds), are the seat's alone; a pad's cursor runs over public choices
        only. A secret refusal of a pad's press — seen by the table — of a seat that has picked takes its pick
        again (`_stand`). JournalError propagates as from `act`."""
        with self._lock:
            moment = self._moment
            prompt = moment.prompt(seat) if 0 <= seat < moment.seats else None
            hidden = prompt is not None and (prompt.secret or (prompt.is_private and not pad))
            try:
                if isinstance(action, Rejected):
                    raise action
                if not isinstance(action, dict) or action.get("seat") != seat:
                    raise refuse("not_your_action", player=seat + 1, seat=seat)
                return Answer(self.act(action), None, hidden)
            except Rejected as e:
                if pad and hidden:
                    self._stand(prompt)
                return Answer("rejected", e, hidden)

    def _stand(self, prompt: Prompt | None) -> None:
        """A press of a seat's pad during its secret pick (`prompt`) was refused: if it holds a pick, that pick is
        taken again, as a press that picked it again would be (the journal written, the version moved, every
        follower told). So once a seat has picked, whether its next press was taken or refused shows on no
        public channel, not even in the time it took (docs/architecture.md, "Every public channel is public")."""
        if self._record is None or (self._pending and self._pending.due):
            return  # nothing held, or nothing may change any more: any press is refused alike
        # a pick held for the reveal delay is its current one too (the moment's state holds it)
        if prompt is not None and prompt.secret and prompt.current is not None:
            self.act(prompt.current)

    def undo(self) -> Literal["undone"]:
        with self._lock:
            game_id = self._require_id()
            record = self._require_game()
            line = self._pending.action if self._pending else record.undone_next
            self._undoing = cast(int, line["seat"]) if line else None
            try:
                if self._pending:  # the held pick is the last thing done
                    version = self._journaled(lambda: self._journal.hold(game_id, None))
                    self._drop_pending()
                    self._changed(version)
                    return "undone"
                self._commit(UNDO)
                return "undone"
            finally:
                self._undoing = None

    def _reveal_held(self) -> None:
        """The reveal delay is over: the held pick is applied. If the journal refuses it, the pick stays held
        (live and in the journal alike) and the reveal is tried again every RETRY seconds."""
        with self._lock:
            if not self._pending:
                return
            try:
                self._commit(self._pending.action, revealing=True)
            except JournalError:
                self._pending = Held(self._pending.action, self._schedule(RETRY, self._reveal_held), due=True)

    def _drop_pending(self) -> None:
        if self._pending:
            self._pending.cancel()
            self._pending = None

    def _require_game(self) -> GameRecord:
        if self._record is None:
            raise refuse("no_game")
        return self._record

    def _require_id(self) -> int:
        """The journal's number of the game in play (refused without one)."""
        if self._record is None or self._game_id is None:
            raise refuse("no_game")
        return self._game_id

    def _commit(self, line: Action, revealing: bool = False) -> None:
        record, dice, game_id = self._require_game(), self._dice, self._require_id()
        assert dice is not None  # it comes with the record
        record.apply(line)
        lines = [line] + self._sample_chance(record, dice)
        try:
            version = self._journaled(lambda: self._journal.append(game_id, lines, revealed=revealing),
                                      rollback=self._rebuild)
        except JournalError:
            raise  # rolled back before the fault was told
        except Exception:
            self._rebuild()
            raise
        if revealing:
            self._pending = None
        self._changed(version)

    def _rebuild(self) -> None:
        """The journal is the truth: the table rebuilt from it never shows a state that was not written."""
        self._game_id, self._record, self._dice = self._load()

    @staticmethod
    def _sample_chance(record: GameRecord, dice: Dice) -> list[Action]:
        """Draw every chance outcome now due, from the game's dice."""
        return record.draw_due(lambda: dice.draw(record.rules, record.state, record.draws, record.log_digest()))

    def close(self) -> None:
        with self._lock:
            self._drop_pending()
            self._journal.close()
        if self._own_scheduler:
            self._own_scheduler.close()

