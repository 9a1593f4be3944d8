"""Where phones find the box: its LAN address, also on a Pi that is its own Wi-Fi hotspot (no default route)."""
import socket

from device import network


class Probe:
    """A UDP socket on a machine whose routes reach only `reachable`, leaving from `source`."""

    reachable, source = (), None

    def __init__(self, *args):
        self.address = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def connect(self, target):
        if target[0] not in self.reachable:
            raise OSError(101, "Network is unreachable")
        self.address = self.source

    def getsockname(self):
        return (self.address, 40000)


def routes(monkeypatch, reachable, source):
    monkeypatch.setattr(Probe, "reachable", reachable)
    monkeypatch.setattr(Probe, "source", source)
    monkeypatch.setattr(socket, "socket", Probe)


def test_the_address_is_the_default_routes(monkeypatch):
    routes(monkeypatch, network.PROBES, "192.168.1.23")
    assert network.box_url("0.0.0.0", 80) == "http://192.168.1.23:80"


def test_a_pi_that_is_its_own_hotspot_names_its_hotspot_address(monkeypatch):
    routes(monkeypatch, ("10.42.0.254",), "10.42.0.1")  # NetworkManager's shared Wi-Fi: no default route
    assert network.box_url("0.0.0.0", 80) == "http://10.42.0.1:80"


def test_with_no_network_the_box_is_reachable_only_from_itself(monkeypatch):
    routes(monkeypatch, (), None)
    assert network.lan_address() == "127.0.0.1"
    assert network.box_url("127.0.0.1", 8000) == "http://127.0.0.1:8000"
