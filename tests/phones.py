"""A phone pairing as people at a table do it: someone opens Menu → Phones on the box's host panel, chooses the
seat (or the host role) and presses OK; the OLED shows a code; the phone types it."""
from device.screens import COLUMNS, who
from device.texts import text
from tests.conftest import virtual


def press_until(box, chosen):
    """Press ▶ on the host panel until the OLED's chosen line (the one marked ">") is `chosen`."""
    for _ in range(16):  # a menu has at most 13 choices (the host role and 12 seats)
        if f">{chosen}" in [line.replace("> ", ">") for line in box.display.screen.lines]:
            return
        virtual(box).press(host="next")
    raise AssertionError(f"{chosen!r} is not among the OLED's choices: {box.display.screen.lines}")


def code_on_oled(box, target):
    """Open the code for `target` (("seat", n) or ("host",)) on the host panel, as a person would: the code the
    OLED shows, as read off it."""
    lang = box.language.value
    virtual(box).press(host="menu")
    press_until(box, text(lang, "menu_join"))
    virtual(box).press(host="ok")  # the QR code, then OK: whom the phone is for
    virtual(box).press(host="ok")
    press_until(box, who(lang, target))
    virtual(box).press(host="ok")
    shown = box.display.screen
    assert shown.title == text(lang, "code_for", who=who(lang, target))[:COLUMNS], shown
    return shown.lines[0]


def take(client, box, target):
    """The phone `client` types the code the OLED shows for `target`: it holds it now."""
    answer = client.post("/api/pair", json={"code": code_on_oled(box, target)})
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()
