"""The contract every game's rules follow (protocol.py in words; options.py for table options, picks.py for secret
simultaneous picks): all a game's rules (games/<name>/rules.py) may import of the engine."""
from .protocol import CHANCE, HOST, PUBLIC, TERMINAL, Rejected

__all__ = ["CHANCE", "HOST", "PUBLIC", "TERMINAL", "Rejected"]
