"""Helpers for the browser tests: Debian's chromium through Playwright, and a real `arbitro --mock`."""
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


def ask_and_hold(page, click, server, box_page=None, shown=lambda claim, words: None):
    """A phone asks for a seat or the host role by `click()`, and shows the button the box drew (its words are
    handed to `shown(claim, words)` then: once the button is held, the phone shows the seat instead); the player
    holds that button, on the virtual box's page when given (its "Hold the next button" switch), else by
    POST /box/press. Returns the claim as the phone received it."""
    with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/claim")) as answer:
        click()
    claim = answer.value.json()
    page.wait_for_selector(".claim .hold")
    shown(claim, page.inner_text(".claim"))
    pad = claim["confirm_by"] == "pad"
    if box_page is not None:
        box_page.click("#hold-next")
        box_page.click(f'[data-seat="{claim["seat"]}"][data-button="{claim["button"]}"]' if pad
                       else f'[data-host="{claim["button"]}"]:not([data-hold])')
    else:
        body = {"seat": claim["seat"], "button": claim["button"]} if pad else {"host": claim["button"]}
        request = urllib.request.Request(server.url + "/box/press", json.dumps({**body, "hold": True}).encode(),
                                         {"Content-Type": "application/json"})
        assert json.load(urllib.request.urlopen(request))["status"] == "claimed"
    return claim
