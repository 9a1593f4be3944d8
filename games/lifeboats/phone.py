"""Rette sich wer kann on the phone: the boats' paint; the colour's name is always written beside it."""
DATA = {"paint": {"rosso": "#c62828", "giallo": "#f9a825", "verde": "#2e7d32", "viola": "#6a1b9a",
                  "arancione": "#ef6c00", "bianco": "#f5f5f5", "nero": "#212121"}}
