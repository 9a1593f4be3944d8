"""Every game the box referees, one folder (package) each: `games/<name>/` holds all of a game, and
engine/games.py registers every folder it finds here."""
