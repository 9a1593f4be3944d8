"""Leader 1, declared: its rules and where each layer finds its parts."""
from ..rules import leader1
from . import ours

GAME = ours(leader1, order=3, public_lines=leader1.public_lines, secret_draw=leader1.secret_draw,
            secret_options=leader1.SECRET_OPTIONS)
