"""Biglietti prego!'s own tests: its rules and rulings, and what it shows (run by `make check`; not in the wheel)."""
