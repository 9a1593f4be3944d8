"""Arbitro's engine: pure game rules, the running table and its journal."""
