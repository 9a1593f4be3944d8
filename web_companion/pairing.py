"""Phones at the table, paired by a code the box shows. Someone at the table asks the box for a phone for a seat
or for the host role — on the host panel's menu, or on the host's phone — and the box shows a six-digit code
where that person reads it (the OLED, or the host's phone); the phone that types it holds the seat. Nothing else
pairs: no pad press, however long, so ordinary play never hands a seat away; and a phone cannot ask for a code,
so nobody off the table can flood the asking (docs/architecture.md, "Phones at the table").

A code lasts WINDOW seconds and pairs one phone, typed or by its link: the QR code beside it on the OLED holds a
link with a random key of KEY_LENGTH base-36 characters (51 bits), which the person at the table opens without
typing. Guessing is bounded for every address together: once TYPED_WRONG wrong codes have been typed while a code
is open, from any addresses, that code can no longer be typed (only its link pairs), so an attacker with any number
of addresses has at most TYPED_WRONG chances in 10**DIGITS per code; a key is not worth guessing at any rate the
box can answer (docs/architecture.md, "Phones at the table", has the arithmetic). Each address (an IPv6 /64 counts
as one) may also type only WRONG wrong codes a minute, then waits: a first line, which is not the bound.

One phone holds a seat (and one the host role): a new holder takes it over, and the phone that had it is told
it lost it. Tokens (at least 128 bits, kept only as their SHA-256) are written to the box's data directory
before they are handed out, so they survive a restart; a seat token stays good for the next game with as many
seats, and goes when a game with another seat count starts."""
import hashlib
import hmac
import ipaddress
import secrets
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeAlias, cast

from engine.rules.protocol import JSON

Target: TypeAlias = tuple[str] | tuple[str, int]  # ("seat", n) or ("host",)

DIGITS = 6
KEY_LENGTH = 10  # characters of a link's key: 36**10 keys, 51.7 bits
KEY_CHARACTERS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"  # a QR code's alphanumeric mode holds them at 5.5 bits each
WINDOW = 120.0  # seconds a code stays good
TYPED_WRONG = 5  # wrong codes typed from anywhere while a code is open, before it can no longer be typed
WRONG = 10  # wrong codes one address may enter in GUESSING seconds
GUESSING = 60.0
GUESSERS = 1024  # addresses whose wrong codes are remembered; beyond, the longest quiet is forgotten
LOST_KEPT = 64  # tokens remembered as having lost their seat, to tell their phones so


class PairingRefused(Exception):
    """A code that is not one the box shows (`pair_wrong`), a code typed after too many wrong ones from anywhere
    (`pair_flooded`: its link still pairs), a link whose code is over (`pair_link_over`), or an address that
    guessed too often (`pair_rate`, with the seconds to wait)."""

    def __init__(self, key: str, seconds: int = 0) -> None:
        super().__init__(key)
        self.key, self.seconds = key, seconds


@dataclass(frozen=True)
class Code:
    code: str  # DIGITS digits
    key: str  # the link's key: KEY_LENGTH of KEY_CHARACTERS
    target: Target
    seats: int | None  # the table's seat count a seat token is good for; None for the host role
    deadline: float


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def well_formed(code: object) -> str | None:
    """The code as the box draws it (spaces a person types between groups dropped), or None."""
    if not isinstance(code, str):
        return None
    code = "".join(code.split())
    return code if len(code) == DIGITS and code.isascii() and code.isdigit() else None


def well_formed_key(key: object) -> str | None:
    """A link's key as the box draws it (in capitals, as the QR code holds it), or None."""
    if not isinstance(key, str):
        return None
    key = key.upper()
    return key if len(key) == KEY_LENGTH and all(c in KEY_CHARACTERS for c in key) else None


def new_key() -> str:
    return "".join(secrets.choice(KEY_CHARACTERS) for _ in range(KEY_LENGTH))


def guesser(address: str | None) -> str | None:
    """Whose guessing budget an address spends: itself, or for IPv6 its /64 (one machine picks freely in it)."""
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


class Store(Protocol):
    """Where the tokens are kept across restarts (engine/state_file.py)."""
    def read(self) -> dict[str, JSON]: ...
    def write(self, data: dict[str, JSON]) -> None: ...


class Pairing:
    def __init__(self, store: Store, clock: Callable[[], float] = time.monotonic, *,
                 draw: Callable[[int], int] = secrets.randbelow) -> None:
        """`store` keeps the tokens across restarts (read()/write() of a dict); `draw(n)` draws a code below n."""
        self._store, self._clock = store, clock
        self.draw = draw  # how a code is drawn (a test seeds it)
        self.window = WINDOW
        self._lock = threading.Lock()
        self._codes: dict[str, Code] = {}  # code -> the open Code
        self._typable: dict[str, int] = {}  # code -> the wrong codes it may still outlive typed (0: link only)
        # guesser -> the times it entered a wrong code this minute, the one that guessed last at the end: what
        # is forgotten is found at the front, so each guess costs the same however many guess
        self._wrong: OrderedDict[str | None, deque[float]] = OrderedDict()
        kept = cast(dict[str, dict[str, Any]], store.read().get("phones", {}))
        self._holdings: dict[str, tuple[Target, int | None]] = {
            h: (cast(Target, tuple(v["target"])), v["seats"]) for h, v in kept.get("holding", {}).items()}
        self._lost: dict[str, Target] = {h: cast(Target, tuple(v)) for h, v in kept.get("lost", {}).items()}

    # -- codes ------------------------------------------------------------------------------------------
    def open(self, target: Target, seats: int | None = None) -> Code:
        """A new code for `target` (a seat at a table of `seats` seats, or the host role); an earlier code for
        the same target ends."""
        with self._lock:
            now = self._clock()
            self._prune(now)
            self._drop(lambda o: o.target == target)  # an earlier code for the same target ends
            code = None
            while code is None or code in self._codes:
                code = f"{self.draw(10 ** DIGITS):0{DIGITS}d}"
            opened = Code(code, new_key(), target, seats, now + self.window)
            self._codes[code] = opened
            self._typable[code] = TYPED_WRONG
            return opened

    def close(self, target: Target) -> None:
        """The code for `target` is no longer shown: it ends."""
        with self._lock:
            self._drop(lambda o: o.target == target)

    def _drop(self, which: Callable[[Code], bool]) -> None:
        """End the open codes `which` picks."""
        for code in [c for c, o in self._codes.items() if which(o)]:
            del self._codes[code], self._typable[code]

    def _prune(self, now: float) -> None:
        self._drop(lambda o: o.deadline < now)
        while self._wrong and next(iter(self._wrong.values()))[-1] + GUESSING < now:
            self._wrong.popitem(last=False)

    @property
    def guessers(self) -> int:
        """How many addresses' wrong codes are remembered now (at most GUESSERS)."""
        return len(self._wrong)

    def showing(self, target: Target) -> Code | None:
        """The open code for `target`, or None (it was used, or it expired)."""
        with self._lock:
            self._prune(self._clock())
            return next((o for o in self._codes.values() if o.target == target), None)

    def enter(self, code: str, address: str | None = None) -> tuple[Target, str]:
        """A phone at `address` typed `code` (well formed): (what it holds now, its token). The token is
        written down before it is handed out (a StateFileError from the store means nothing changed). Raises
        PairingRefused for a code the box does not show, for one that can no longer be typed (TYPED_WRONG wrong
        codes came while it was open), or when the address guessed WRONG times this minute."""
        with self._lock:
            now = self._clock()
            self._prune(now)
            who = guesser(address)
            wrong = self._wrong.get(who, deque())
            while wrong and wrong[0] + GUESSING < now:
                wrong.popleft()
            if len(wrong) >= WRONG:
                raise PairingRefused("pair_rate", max(1, round(wrong[0] + GUESSING - now)))
            if self._typable.get(code):
                return self._hand(self._codes[code])
            wrong.append(now)
            self._wrong[who] = wrong
            self._wrong.move_to_end(who)
            if len(self._wrong) > GUESSERS:
                self._wrong.popitem(last=False)
            checked = any(self._typable.values())  # against the open codes that may still be typed
            for typed, left in self._typable.items():  # each spends one of the wrong codes it outlives
                self._typable[typed] = max(0, left - 1)
            # Said alike of every code while one may still be typed: an answer of its own for a closed code
            # would confirm that the code guessed is one the box shows.
            raise PairingRefused("pair_flooded" if self._codes and not checked else "pair_wrong")

    def follow(self, key: str) -> tuple[Target, str]:
        """A phone opened the link of a code's QR code (`key` well formed): as `enter`, at any rate from any
        address (a key is not worth guessing: docs/architecture.md). Raises PairingRefused when no open code has
        that key (it was used, it expired, its screen closed)."""
        with self._lock:
            self._prune(self._clock())
            # every open key compared in full: how long the answer takes says nothing of how close a guess was
            found = [o for o in self._codes.values() if hmac.compare_digest(o.key, key)]
            if not found:
                raise PairingRefused("pair_link_over")
            return self._hand(found[0])

    def _hand(self, opened: Code) -> tuple[Target, str]:
        """The phone that entered `opened` holds its target (under the lock): its token, written down first."""
        token = secrets.token_urlsafe(24)  # 192 bits
        holdings = {h: v for h, v in self._holdings.items() if v[0] != opened.target}
        lost = dict(self._lost)
        for h, (target, _) in self._holdings.items():
            if target == opened.target:
                lost[h] = target
        lost = dict(list(lost.items())[-LOST_KEPT:])
        holdings[digest(token)] = (opened.target, opened.seats)
        self._save(holdings, lost)
        self._drop(lambda o: o is opened)
        return opened.target, token

    def new_table(self, seats: int) -> None:
        """A game of `seats` seats starts: seat tokens of another seat count are void (the host's stays), and so
        are the codes for seats."""
        with self._lock:
            self._drop(lambda o: o.target[0] == "seat")
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
    def _held(self, token: str | None) -> tuple[Target, int | None] | None:
        """What `token` holds (its target and the seat count it is good for), or None."""
        return self._holdings.get(digest(token)) if token else None

    def seat_of(self, token: str | None, seats: int) -> int | None:
        """The seat `token` holds at a table of `seats` seats, or None."""
        held = self._held(token)
        if held and held[0][0] == "seat" and len(held[0]) == 2 and held[1] == seats:
            return held[0][1]
        return None

    def is_host(self, token: str | None) -> bool:
        held = self._held(token)
        return bool(held and held[0] == ("host",))

    def lost(self, token: str | None) -> Target | None:
        """What `token` held before another phone took it over (("seat", n) or ("host",)), or None."""
        return self._lost.get(digest(token)) if token else None

    def holds(self, target: Target, seats: int | None = None) -> bool:
        """True when a phone holds `target` (a seat at a table of `seats` seats)."""
        return any(t == target and (target == ("host",) or s == seats) for t, s in self._holdings.values())
