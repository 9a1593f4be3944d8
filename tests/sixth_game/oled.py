"""Moneta on the OLED."""
from device.screens import Screen, outcome_lines, paged, picking
from device.texts import text


def live(view, lang):
    return picking(view, lang, text(lang, "call", "moneta")) if "picking" in view else Screen(TITLE(lang))


def TITLE(lang):
    return text(lang, "toss", "moneta")


def chapters(view, lang):
    return [(("result",), [result(view, lang)])] if view["over"] else []


def result(view, lang):
    return paged(text(lang, view["coin"], "moneta"), outcome_lines(view, lang))[0]


def summary(view):
    return [f"coin: {view['coin']}"]
