"""The games Arbitro referees, by their log name."""
from . import biglietti, leader1, lifeboats, ponte, shangrila
from .protocol import CHANCE, HOST, PUBLIC, TERMINAL, Rejected, refuse

GAMES = {game.NAME: game for game in (ponte, lifeboats, leader1, biglietti, shangrila)}


def game_module(name):
    try:
        return GAMES[name]
    except (KeyError, TypeError):
        raise refuse("unknown_game", game=name, games=", ".join(sorted(GAMES))) from None


__all__ = ["CHANCE", "GAMES", "HOST", "PUBLIC", "TERMINAL", "Rejected", "game_module"]
