"""Every game the box referees, one folder (package) each: `games/<name>/` holds all of a game and makes its
descriptor, `GAME`. `ALL` lists them in the order the box's menu shows them; whoever starts a program hands it to
`engine.games.register` (the engine imports no game)."""
from engine.games import Game

from . import biglietti, leader1, lifeboats, ponte, shangrila

ALL: tuple[Game, ...] = (ponte.GAME, lifeboats.GAME, leader1.GAME, biglietti.GAME, shangrila.GAME)
