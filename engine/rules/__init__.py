"""The pure rules of every game, one module each (the contract is in protocol.py); engine/games/ declares
them with the rest of each game's parts."""
from .protocol import CHANCE, HOST, PUBLIC, TERMINAL, Rejected

__all__ = ["CHANCE", "HOST", "PUBLIC", "TERMINAL", "Rejected"]
