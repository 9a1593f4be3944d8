"""Helpers for the browser tests: Debian's chromium through Playwright, and a real `arbitro --mock`."""
import io
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest
from PIL import Image

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SCREENSHOTS = Path(__file__).parent / "screenshots"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def require_chromium():
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail("chromium is missing in CI: `make test` should have installed it")
        pytest.skip("Debian's chromium is not installed (make test installs it where it can)")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`arbitro --mock` in a subprocess, as the README starts it."""

    def __init__(self, data, *args, port=None):
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.output = tempfile.TemporaryFile("w+")  # a file, not a pipe: a chatty server never blocks on it
        self.process = subprocess.Popen(
            [sys.executable, "-m", "device.cli", "--mock", "--port", str(self.port), "--data", str(data), *args],
            cwd=Path(__file__).parent.parent, stdout=self.output, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "/api/table", timeout=1).read()
                return
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(self.said()) from None
                time.sleep(0.1)
        raise RuntimeError("arbitro --mock did not start")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)

    def said(self):
        """What the server wrote to its terminal so far."""
        self.output.seek(0)
        return self.output.read()


def launch(playwright):
    require_chromium()
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


def screenshot(page, name):
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"{name}.png", full_page=True)


def post(server, path, body):
    request = urllib.request.Request(server.url + path, json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(request))


def read_oled_line(png, line, length, alphabet="0123456789 ", beside_qr=False):
    """Characters of the OLED's body line `line` (on a screen with a QR code: of the lines beside it) read off
    its image, as a person reads them: each cell matched against the panel's own font drawing each character of
    `alphabet` there."""
    from device.display import LINE, QR_SIZE, render
    from device.screens import Screen
    image = Image.open(io.BytesIO(png)).convert("1")
    left, top = (QR_SIZE + 4, LINE + 2 + line * LINE) if beside_qr else (0, LINE + 1 + line * LINE)
    read = ""
    for n in range(length):
        box = (left, top, left + 6 * (n + 1), top + LINE)
        found = [c for c in alphabet if render(Screen("", ("",) * line + (read + c,), qr="A" if beside_qr else None)
                                               ).crop(box).tobytes() == image.crop(box).tobytes()]
        assert len(found) == 1, f"cell {n} of line {line} reads as {found}"
        read += found[0]
    return read


def click_key(box_page, selector):
    """Click a key of the virtual box's page and wait for the box's answer to that very press, so the next click
    never overtakes it (the page may redraw its keys meanwhile: waiting on the key itself could end early)."""
    with box_page.expect_response(lambda r: r.url.endswith("/box/press")) as answer:
        box_page.click(selector)
    return answer.value.json()


def code_from_box(server, box_page, target):
    """The code for `target` (("seat", n) or ("host",)), asked as a person at the box does: on the virtual box's
    host panel, Menu, Telefoni, OK, OK, ▶ to the seat, OK; read off the OLED."""
    playing = json.load(urllib.request.urlopen(server.url + "/api/table")).get("over") is False
    clicks = ["menu"] + ["next"] * (1 if playing else 2) + ["ok", "ok"]
    clicks += ["next"] * (target[1] + 1 if target[0] == "seat" else 0) + ["ok"]
    for name in clicks:
        click_key(box_page, f'[data-host="{name}"]:not([data-hold])')
    return read_oled_line(urllib.request.urlopen(server.url + "/box/oled.png").read(), 0, 7, beside_qr=True)


def pair(page, server, target, box_page=None, shown=lambda words: None):
    """The phone `page`, on its Seat or Host tab, pairs for `target`: the code comes from the virtual box's OLED
    when `box_page` is given, else from the host's own screen (this computer's browser is the host in mock
    mode: POST /api/host/pair). Its form's words are handed to `shown(words)` before the code is typed."""
    if box_page is not None:
        code = code_from_box(server, box_page, target)
    else:
        code = post(server, "/api/host/pair", {"host": True} if target[0] == "host" else {"seat": target[1]})["code"]
    page.wait_for_selector("#pair-code")
    shown(page.inner_text(".pair"))
    page.fill("#pair-code", code)
    with page.expect_response(lambda r: r.url.endswith("/api/pair")) as answer:
        page.click(".pair button[type=submit]")
    assert answer.value.status == 200, answer.value.json()
    return code
