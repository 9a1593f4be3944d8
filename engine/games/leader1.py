"""Leader 1, declared: what its menu shows, its rules and where each layer finds its parts."""
from ..rules import leader1_options
from . import ours

GAME = ours(leader1_options, order=3, capabilities=("public_lines", "secret_draw"),
            secret_options=leader1_options.SECRET_OPTIONS)
