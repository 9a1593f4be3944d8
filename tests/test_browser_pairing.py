"""Pairing without typing, in a real browser at 360 px in Italian: the phone's camera reads the QR code beside the
code on the OLED, the browser opens its link, and the page pairs the phone and goes on to the seat; the same link
again says it is over and offers the typed code. The host's phone shows the link's QR code beside its own code.
Screenshots in tests/screenshots/."""
import io
import urllib.request

import pytest
import zxingcpp
from PIL import Image

from tests.axe import serious
from tests.browser import Server, click_key, code_from_box, post, screenshot

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


@pytest.fixture
def server(tmp_path):
    running = Server(tmp_path / "data", "--game", "ponte", "--seats", "4")
    yield running
    running.stop()


def test_the_qr_code_beside_the_code_pairs_the_phone_that_opens_it(server, browser):
    box = browser.new_context(locale="it-IT").new_page()
    box.goto(server.url + "/box")
    code_from_box(server, box, ("seat", 1))
    frame = Image.open(io.BytesIO(urllib.request.urlopen(server.url + "/box/oled.png").read()))
    found = zxingcpp.read_barcodes(frame.convert("L"))
    assert len(found) == 1 and found[0].text.startswith(f"HTTP://127.0.0.1:{server.port}/P/")

    phone = browser.new_context(locale="it-IT", **PHONE).new_page()
    with phone.expect_response(lambda r: r.url.endswith("/api/pair")) as answer:
        phone.goto(found[0].text)  # the uppercase link as the camera read it
    assert answer.value.status == 200  # its body is gone with the page: the seat's page says which seat
    phone.wait_for_url(server.url + "/seat")
    phone.wait_for_selector("text=Sei il giocatore 2")
    screenshot(phone, "pair_link_paired_it_360")

    again = browser.new_context(locale="it-IT", **PHONE).new_page()
    again.goto(found[0].text)
    again.wait_for_selector("text=Questo link non vale più")
    assert again.title().startswith("Collegamento del telefono") and serious(again) == []
    again.click("text=Scrivi il codice")
    again.wait_for_selector("#pair-code")
    again.go_back()
    again.wait_for_selector("text=Questo link non vale più")
    screenshot(again, "pair_link_over_it_360")
    click_key(box, '[data-host="ok"]:not([data-hold])')


def test_the_hosts_phone_shows_the_links_qr_code(server, browser):
    host = browser.new_context(locale="it-IT", **PHONE).new_page()
    host.goto(server.url + "/host")  # this computer's browser is the host in mock mode
    host.select_option("#pair-for", "2")
    host.click("text=Mostra un codice")
    canvas = host.wait_for_selector("canvas.qr")
    assert canvas.get_attribute("aria-label") == "QR code che collega un telefono"
    shot = Image.open(io.BytesIO(canvas.screenshot()))
    found = zxingcpp.read_barcodes(shot.convert("L"))
    assert len(found) == 1 and found[0].text.startswith(f"HTTP://127.0.0.1:{server.port}/P/")
    screenshot(host, "pair_link_host_it_360")
    assert serious(host) == []

    phone = browser.new_context(locale="it-IT", **PHONE).new_page()
    phone.goto(found[0].text)
    phone.wait_for_url(server.url + "/seat")
    phone.wait_for_selector("text=Sei il giocatore 3")
    assert post(server, "/api/host/pair", {"seat": 2})["code"]  # the host may ask again: a new code, a new link
