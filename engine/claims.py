"""Phones at the table, by consent. A phone asks for a seat (or the host role); the box draws one button of the
panel that confirms it — the seat's own pad, or the host panel for the host role and for a seat no pad wires —
and only the phone is told which. Holding that button for HOLD seconds hands the phone a token; nothing else
does. A phone elsewhere cannot guess the button, and an ordinary press never confirms anything: the box plays a
press of that button released sooner as the press it is (device/box.py).

One phone holds a seat (and one the host role): a new holder takes it over, and the phone that had it is told
it lost it. Tokens (at least 128 bits, kept only as their SHA-256) are written to the box's data directory
before they are handed out, so they survive a restart; a seat token stays good for the next game with as many
seats, and goes when a game with another seat count starts. Open claims expire after WINDOW seconds and are
bounded: a few on each panel (each with its own button), a few dozen in all, a few at once and a score a
minute from one address."""
import hashlib
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeAlias, cast

from .rules.protocol import JSON

Target: TypeAlias = tuple[str] | tuple[str, int]  # ("seat", n) or ("host",)

HOLD = 2.0  # seconds the drawn button is held
WINDOW = 60.0  # seconds a claim stays open
KEPT = 60.0  # seconds a claim's answer (confirmed, expired) can still be asked for
PER_PANEL = 3  # open claims one panel confirms at once, each on its own button
OPEN_MAX = 24  # open claims on the whole box
PER_ADDRESS = 3  # open claims from one address
RATE = 20  # claims one address may open in a minute
LOST_KEPT = 64  # tokens remembered as having lost their seat, to tell their phones so


class ClaimRefused(Exception):
    """Too many claims at once, or too many from one phone; the message says when to try again."""

    def __init__(self, key: str, seconds: int) -> None:
        super().__init__(key)
        self.key, self.seconds = key, seconds


@dataclass
class Claim:
    id: str
    target: Target  # ("seat", n) or ("host",)
    panel: Target  # where it is confirmed: ("seat", n), a seat's pad, or ("host",), the host panel
    button: object  # the button to hold: 1–8 on a pad, a host panel button's name
    seats: int | None  # the table's seat count a seat token is good for; None for the host role
    deadline: float
    address: str | None = None  # the phone's network address
    token: str | None = None


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Store(Protocol):
    """Where the tokens are kept across restarts (engine/state_file.py)."""
    def read(self) -> dict[str, JSON]: ...
    def write(self, data: dict[str, JSON]) -> None: ...


class Claims:
    def __init__(self, store: Store, clock: Callable[[], float] = time.monotonic, *,
                 choose: Callable[[Sequence[object]], object] = secrets.choice) -> None:
        """`store` keeps the tokens across restarts (read()/write() of a dict); `choose` draws a button."""
        self._store, self._clock, self.choose = store, clock, choose
        self.window, self.hold = WINDOW, HOLD
        self._lock = threading.Lock()
        self._claims: dict[str, Claim] = {}  # claim id -> Claim: open, or answered within KEPT seconds
        self._asked: dict[str | None, deque[float]] = {}  # address -> the times it opened a claim
        kept = cast(dict[str, dict[str, Any]], store.read().get("phones", {}))
        self._holdings: dict[str, tuple[Target, int | None]] = {
            h: (cast(Target, tuple(v["target"])), v["seats"]) for h, v in kept.get("holding", {}).items()}
        self._lost: dict[str, Target] = {h: cast(Target, tuple(v)) for h, v in kept.get("lost", {}).items()}

    # -- asking ---------------------------------------------------------------------------------------
    def request(self, target: Target, panel: Target, buttons: Sequence[object], seats: int | None = None,
                address: str | None = None) -> Claim:
        """Open a claim on `target`, confirmed by holding one of `buttons` (drawn at random, none that another
        open claim on the panel holds) on `panel`. Raises ClaimRefused when the box has too many open."""
        with self._lock:
            now = self._clock()
            self._prune(now)
            open_claims = [c for c in self._claims.values() if c.token is None and c.deadline >= now]
            asked = self._asked.get(address, deque())
            if len(asked) >= RATE:
                raise ClaimRefused("claims_rate", max(1, round(asked[0] + 60 - now)))
            mine = [c for c in open_claims if c.address == address]
            if len(mine) >= PER_ADDRESS:
                raise ClaimRefused("claims_rate", max(1, round(mine[0].deadline - now)))
            taken = {c.button for c in open_claims if c.panel == panel}
            free = [b for b in buttons if b not in taken]
            if len(open_claims) >= OPEN_MAX or len(taken) >= PER_PANEL or not free:
                soonest = min(c.deadline for c in open_claims)
                raise ClaimRefused("claims_busy", max(1, round(soonest - now)))
            claim = Claim(secrets.token_urlsafe(16), target, panel, self.choose(free), seats, now + self.window,
                          address)
            self._claims[claim.id] = claim
            self._asked.setdefault(address, deque()).append(now)
            return claim

    def _prune(self, now: float) -> None:
        for claim_id in [i for i, c in self._claims.items() if c.deadline + KEPT < now]:
            del self._claims[claim_id]
        for address in list(self._asked):
            times = self._asked[address]
            while times and times[0] + 60 < now:
                times.popleft()
            if not times:
                del self._asked[address]

    def cancel(self, claim_id: str) -> bool:
        """The phone gave up asking: its button is free again."""
        with self._lock:
            claim = self._claims.get(claim_id)
            if claim and claim.token is None:
                del self._claims[claim_id]
                return True
            return False

    def status(self, claim_id: str) -> tuple[Claim, str] | tuple[None, None]:
        """(the Claim, 'pending' | 'confirmed' | 'expired'), or (None, None) for an unknown claim."""
        with self._lock:
            self._prune(self._clock())
            claim = self._claims.get(claim_id)
            if claim is None:
                return None, None
            if claim.token:
                return claim, "confirmed"
            return claim, ("pending" if claim.deadline >= self._clock() else "expired")

    def waiting(self, panel: Target | None = None) -> list[Claim]:
        """The open claims (on `panel`, when given), oldest first: the OLED names whom they concern."""
        with self._lock:
            now = self._clock()
            return sorted((c for c in self._claims.values() if c.token is None and c.deadline >= now
                           and panel in (None, c.panel)), key=lambda c: c.deadline)

    def awaits(self, panel: Target, button: object) -> Claim | None:
        """The open claim that holding `button` on `panel` would confirm, or None."""
        return next((c for c in self.waiting(panel) if c.button == button), None)

    # -- confirming -------------------------------------------------------------------------------------
    def confirm(self, claim: Claim) -> Target | None:
        """The claim's button was held: its phone gets the target. The token is written down before it is
        handed out (a StateFileError from the store means nothing changed). Returns the target."""
        with self._lock:
            if claim.token is not None or self._claims.get(claim.id) is not claim:
                return None
            token = secrets.token_urlsafe(24)  # 192 bits
            holdings = {h: v for h, v in self._holdings.items() if v[0] != claim.target}
            lost = dict(self._lost)
            for h, (target, _) in self._holdings.items():
                if target == claim.target:
                    lost[h] = target
            lost = dict(list(lost.items())[-LOST_KEPT:])
            holdings[digest(token)] = (claim.target, claim.seats)
            self._save(holdings, lost)
            claim.token, claim.deadline = token, self._clock()
            return claim.target

    def new_table(self, seats: int) -> None:
        """A game of `seats` seats starts: seat tokens of another seat count are void (the host's stays)."""
        with self._lock:
            holdings = {h: v for h, v in self._holdings.items() if v[0] == ("host",) or v[1] == seats}
            if holdings != self._holdings:
                self._save(holdings, self._lost)

    def _save(self, holdings: dict[str, tuple[Target, int | None]], lost: dict[str, Target]) -> None:
        data = self._store.read()
        data["phones"] = {"holding": {h: {"target": list(t), "seats": s} for h, (t, s) in holdings.items()},
                          "lost": {h: list(t) for h, t in lost.items()}}
        self._store.write(data)
        self._holdings, self._lost = holdings, lost

    # -- who holds what ---------------------------------------------------------------------------------
    def seat_of(self, token: str | None, seats: int) -> int | None:
        """The seat `token` holds at a table of `seats` seats, or None."""
        held = self._holdings.get(digest(token)) if token else None
        if held and held[0][0] == "seat" and len(held[0]) == 2 and held[1] == seats:
            return held[0][1]
        return None

    def is_host(self, token: str | None) -> bool:
        held = self._holdings.get(digest(token)) if token else None
        return bool(held and held[0] == ("host",))

    def lost(self, token: str | None) -> Target | None:
        """What `token` held before another phone took it over (("seat", n) or ("host",)), or None."""
        return self._lost.get(digest(token)) if token else None

    def holds(self, target: Target, seats: int | None = None) -> bool:
        """True when a phone holds `target` (a seat at a table of `seats` seats)."""
        return any(t == target and (target == ("host",) or s == seats) for t, s in self._holdings.values())
