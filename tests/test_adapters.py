"""The few places the box relies on a dependency's behaviour beyond its plainest API, each behind one small adapter:
these tests fail if the version the lock installs changes that behaviour."""
import http.client
import socket
import threading

import pytest
import waitress
from gpiozero.pins.mock import MockFactory
from luma.core.device import dummy
from luma.oled.device import sh1106, ssd1306

from device.display import Panel, panel_kind
from tests.test_display import Wire
from web_companion.waitress_writer import connection_writer


def test_a_mock_pin_subclass_hears_the_public_setters_through_gpiozeros_documented_hooks():
    """device/mock/matrix.py builds its pins on MockPin's hooks (_set_function, _set_state, _get_state,
    _set_when_changed): the public properties must go through them."""
    heard = []

    class Heard:
        def _set_function(self, value):
            heard.append(("function", value))
            super()._set_function(value)

        def _set_state(self, value):
            heard.append(("state", value))
            super()._set_state(value)

        def _get_state(self):
            heard.append(("read",))
            return super()._get_state()

        def _set_when_changed(self, value):
            heard.append(("when_changed", value is not None))
            super()._set_when_changed(value)

    factory = MockFactory()
    try:
        pin = factory.pin(20, pin_class=type("HeardPin", (Heard, factory.pin_class), {}))
        pin.function = "output"
        pin.state = 0
        assert pin.state == 0 and pin.function == "output"
        pin.function = "input"
        pin.when_changed = lambda ticks, state: None
        pin.edges = "both"
        assert pin.edges == "both"
        assert ("function", "output") in heard and ("state", 0) in heard and ("read",) in heard
        assert ("function", "input") in heard and ("when_changed", True) in heard
    finally:
        factory.reset()


@pytest.mark.parametrize("driver", [ssd1306, sh1106])
def test_luma_oleds_drivers_are_known_by_their_class_and_take_commands_and_data(driver):
    device = driver(serial_interface=Wire())
    assert panel_kind(device) == driver.__name__ and Panel(device).kind == driver.__name__
    assert callable(device.command) and callable(device.data) and callable(device.preprocess)


def test_the_mock_displays_device_is_no_panel():
    assert panel_kind(dummy(width=128, height=64, mode="1")) is None


@pytest.mark.parametrize("protocol", ["HTTP/1.1", "HTTP/1.0"])
def test_bytes_written_to_a_waitress_connection_from_another_thread_reach_the_client_framed(protocol):
    """web_companion/waitress_writer.py: what it writes from a thread of its own, the client reads as the body."""
    written = threading.Event()

    def app(environ, start_response):
        write = connection_writer(environ)
        assert write is not None, "waitress no longer hands its channel to the app"
        start_response("200 OK", [("Content-Type", "text/plain")])
        yield b"first;"
        threading.Thread(target=lambda: (write(b"second;"), write(b"third"), written.set())).start()
        written.wait(5)

    server = waitress.create_server(app, host="127.0.0.1", port=0, threads=2)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        if protocol == "HTTP/1.1":  # chunked: http.client takes the frames off
            connection = http.client.HTTPConnection("127.0.0.1", server.effective_port, timeout=5)
            connection.request("GET", "/")
            assert connection.getresponse().read() == b"first;second;third"
        else:  # no framing: the body runs to the connection's end
            with socket.create_connection(("127.0.0.1", server.effective_port), timeout=5) as plain:
                plain.sendall(b"GET / HTTP/1.0\r\n\r\n")
                received = b"".join(iter(lambda: plain.recv(4096), b""))
            assert received.split(b"\r\n\r\n", 1)[1] == b"first;second;third"
    finally:
        server.close()
