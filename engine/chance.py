"""Chance the table can audit: every draw of a game is derived from a secret seed the box commits to before the
first draw and reveals after the last (docs/chance.md says it precisely enough to write a verifier from it).

- seed: 32 bytes from the OS's secure source (`secrets`), one per game, kept only in the box's journal.
- commitment: SHA-256 of the seed followed by the game's identity (its table line: game, seats, options, as
  compact JSON with sorted keys, UTF-8), in hex. Published at once: the log's first line, every phone, the OLED.
- draw number i (0, 1, 2 … counting every fresh draw of the game; an undo never moves it back): the outcomes the
  rules offer, in their order, weighted by their probabilities as exact fractions scaled to whole numbers;
  r = uniform(seed, i, total, L) picks the outcome whose running total first exceeds r.
- L, the table's part: the SHA-256 digest of the game's log lines before the draw (each as compact JSON with
  sorted keys, UTF-8, then a newline), in a game whose table line says "mix": "log"; empty in one of before.
- uniform(seed, i, n, L): HMAC-SHA-256 keyed with the seed over b"arbitro-draw" + i (8 bytes, big-endian) +
  attempt (4 bytes, big-endian, from 0) + L; its first 8 bytes as a big-endian number x; x < 2^64 - (2^64 mod n)
  gives x mod n, else the next attempt (rejection sampling: no outcome is favoured).
"""
from __future__ import annotations  # the type checker's names (Rules) are imported for it alone

import hashlib
import hmac
import itertools
import json
import math
import secrets
from collections.abc import Mapping
from fractions import Fraction
from random import Random
from typing import TYPE_CHECKING, Any

from .rules.protocol import JSON, Action, Outcomes

if TYPE_CHECKING:
    from .games import Rules

SEED_BYTES = 32
LABEL = b"arbitro-draw"
SPAN = 2 ** 64
IDENTITY_KEYS = ("arbitro", "game", "seats", "options")
MIX = "log"  # a game's draws mix in the digest of its log before each one


def new_seed() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


def identity(table_line: Mapping[str, object]) -> bytes:
    """The game's identity as the commitment hashes it: its table line without the chance entry."""
    return canonical({k: table_line[k] for k in IDENTITY_KEYS if k in table_line})


def canonical(line: Mapping[str, object]) -> bytes:
    """A line as the digests hash it: JSON with the keys sorted, no spaces, UTF-8."""
    return json.dumps(line, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def commitment(seed: bytes, table_line: Mapping[str, object]) -> str:
    return hashlib.sha256(seed + identity(table_line)).hexdigest()


def uniform(seed: bytes, index: int, bound: int, table: bytes = b"") -> int:
    """An integer in [0, bound), derived from the seed, the draw's index and `table` (the digest of what the
    table did before the draw; empty in a game that does not mix it in), with no bias."""
    limit = SPAN - SPAN % bound
    for attempt in itertools.count():
        message = LABEL + index.to_bytes(8, "big") + attempt.to_bytes(4, "big") + table
        x = int.from_bytes(hmac.new(seed, message, hashlib.sha256).digest()[:8], "big")
        if x < limit:
            return x % bound
    raise AssertionError("unreachable: itertools.count() never ends")


def weights(outcomes: Outcomes) -> list[int]:
    """The outcomes' probabilities as whole numbers with the same ratios (each a fraction k/n of a small n)."""
    fractions = [Fraction(p).limit_denominator(1_000_000) for _, p in outcomes]
    scale = math.lcm(*(f.denominator for f in fractions))
    return [int(f * scale) for f in fractions]


def outcome(seed: bytes, index: int, outcomes: Outcomes, table: bytes = b"") -> Action:
    """Draw number `index` among `outcomes` ([(action, probability)], as the rules list them)."""
    counts = weights(outcomes)
    r = uniform(seed, index, sum(counts), table)
    for (action, _), running in zip(outcomes, itertools.accumulate(counts)):
        if r < running:
            return action
    raise AssertionError("unreachable: r < the total")


class Committed:
    """A game's committed seed: the table draws from it; its commitment is public, the seed is not. A game
    that `mixes` the table in (every game started since; its table line says `"mix": "log"`) draws from the seed
    and the digest of its log before each draw: the players' own moves, made after the commitment, so a seed
    the box chose could not have chosen what they would do."""
    verifiable = True

    def __init__(self, seed: bytes, table_line: Mapping[str, object], *, mixes: bool) -> None:
        self.seed = seed
        self.commitment = commitment(seed, table_line)
        self.mixes = mixes

    @classmethod
    def of(cls, seed: bytes, table_line: Mapping[str, object]) -> "Committed":
        """The dice of a game as its table line describes them (a game of before the mix draws without)."""
        chance = table_line.get("chance")
        return cls(seed, table_line, mixes=isinstance(chance, dict) and chance.get("mix") == MIX)

    def draw(self, rules: Rules[Any], state: Any, index: int, log: bytes) -> Action:
        """Draw number `index`; `log` is the digest of the game's log before it (engine/record.py)."""
        return outcome(self.seed, index, rules.chance_outcomes(state), log if self.mixes else b"")

    def public(self, revealed: bool) -> dict[str, JSON]:
        """What the table line and every viewer may know: the commitment (and the mix), and the seed once
        revealed."""
        shown: dict[str, JSON] = {"commitment": self.commitment, **({"mix": MIX} if self.mixes else {})}
        return {**shown, "seed": self.seed.hex()} if revealed else shown


def draw(rules: Rules[Any], state: Any, random: Random) -> Action:
    """One outcome for `state` from a plain random source (anything with `choices`), by the probabilities."""
    outcomes = rules.chance_outcomes(state)
    return random.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]


class Unverifiable:
    """Draws from a random source that commits to nothing (mock mode's loaded dice, tests, a replay's --seed):
    marked "not verifiable" in the log and on the phones."""
    verifiable = False
    seed: bytes | None = None
    marked: dict[str, JSON] = {"verifiable": False}  # what the table line and every viewer are told

    def __init__(self, random: Random) -> None:
        self.random = random

    def draw(self, rules: Rules[Any], state: Any, index: int, log: bytes) -> Action:
        return draw(rules, state, self.random)

    def public(self, revealed: bool) -> dict[str, JSON]:
        return dict(self.marked)


Dice = Committed | Unverifiable  # where a game's chance outcomes come from
