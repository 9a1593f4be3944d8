"""Proof of sitting there: a phone asks for a seat (or the host role) and gets it once someone presses a
button of that seat's pad (or the host panel's OK: for the host role, and for a seat no pad wires) within the
window. The press that proves it is used up."""
import secrets
import threading
import time
from dataclasses import dataclass

WINDOW = 30.0  # seconds


@dataclass
class Claim:
    target: tuple  # ("seat", n) or ("host",)
    game: int | None  # the game a seat token is good for; None for the host
    deadline: float
    token: str | None = None


class Claims:
    def __init__(self, clock=time.monotonic, window=WINDOW):
        self._clock = clock
        self.window = window
        self._lock = threading.Lock()
        self._claims = {}  # claim id -> Claim
        self._tokens = {}  # token -> Claim

    def request(self, target, game=None):
        """A new claim on `target`; returns its id (a secret the asking phone keeps)."""
        claim_id = secrets.token_urlsafe(16)
        with self._lock:
            self._claims[claim_id] = Claim(target, game, self._clock() + self.window)
        return claim_id

    def confirm(self, *targets):
        """A press on one of `targets`: confirms the newest open claim on them (one press, one phone). True
        when the press was used up so."""
        now = self._clock()
        with self._lock:
            open_claims = [c for c in self._claims.values() if c.target in targets and c.token is None
                           and c.deadline >= now]
            if not open_claims:
                return False
            claim = max(open_claims, key=lambda c: c.deadline)
            claim.token = secrets.token_urlsafe(24)
            self._tokens[claim.token] = claim
            return True

    def status(self, claim_id):
        """('pending', seconds left) / ('confirmed', token) / ('expired', None) / (None, None) if unknown."""
        with self._lock:
            claim = self._claims.get(claim_id)
            if claim is None:
                return None, None
            if claim.token:
                return "confirmed", claim.token
            left = claim.deadline - self._clock()
            return ("pending", left) if left >= 0 else ("expired", None)

    def holds(self, target, game):
        """True when a phone holds `target` in `game`."""
        with self._lock:
            return any(c.target == target and c.game == game for c in self._tokens.values())

    def holder(self, token):
        """The Claim a token proves, or None."""
        with self._lock:
            return self._tokens.get(token) if token else None
