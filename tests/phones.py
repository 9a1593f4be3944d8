"""A phone pairing as people at a table do it: someone opens Menu → Phones on the box's host panel, chooses the
seat (or the host role) and presses OK; the OLED shows a code; the phone types it."""
from urllib.parse import urlsplit

import zxingcpp

from device.screens import seat, who
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
    assert shown.qr and shown.title == (seat(lang, target[1]) if target[0] == "seat" else text(lang, "host")), shown
    return shown.lines[0]


def link_on_oled(box, target):
    """As `code_on_oled`: the link of the QR code beside the code, as a phone's camera reads it off the OLED (a
    real decoder, ZXing, reading the frame the panel shows)."""
    code_on_oled(box, target)
    found = zxingcpp.read_barcodes(box.display.image.convert("L"))
    assert len(found) == 1, found
    return found[0].text


def take(client, box, target):
    """The phone `client` types the code the OLED shows for `target`: it holds it now."""
    answer = client.post("/api/pair", json={"code": code_on_oled(box, target)})
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def open_link(client, link):
    """The phone `client` opens a pairing code's link: the page (which changes nothing), then what its script
    sends, the key in its address. The answer to that."""
    path = urlsplit(link).path
    page = client.get(path)
    assert page.status_code == 200 and "pair_link.js" in page.get_data(as_text=True)
    return client.post("/api/pair", json={"key": path.rsplit("/", 1)[-1]})
