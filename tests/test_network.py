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


FIB_TRIE = """Main:
  +-- 0.0.0.0/0 3 0 5
     |-- 0.0.0.0
        /0 universe UNICAST
     +-- 127.0.0.0/8 2 0 2
           |-- 127.0.0.1
              /32 host LOCAL
     +-- 192.168.1.0/24 2 0 2
           |-- 192.168.1.0
              /24 link UNICAST
           |-- 192.168.1.23
              /32 host LOCAL
           |-- 192.168.1.255
              /32 link BROADCAST
     |-- 10.42.0.1
        /32 host LOCAL
"""
IF_INET6 = """fd000000000000000000000000000023 03 40 00 00    wlan0
00000000000000000000000000000001 01 80 10 80       lo
fe80000000000000ba27ebfffe123456 03 40 20 80    wlan0
"""


def test_the_box_is_reached_by_its_host_name_its_local_name_and_every_address(monkeypatch, tmp_path):
    routes(monkeypatch, network.PROBES, "192.168.1.23")
    monkeypatch.setattr(socket, "gethostname", lambda: "Arbitro")
    (tmp_path / "fib_trie").write_text(FIB_TRIE)
    (tmp_path / "if_inet6").write_text(IF_INET6)
    assert network.names(tmp_path) == {"arbitro", "arbitro.local", "127.0.0.1", "192.168.1.23", "10.42.0.1",
                                       "fd00::23", "::1", "fe80::ba27:ebff:fe12:3456"}


def test_where_the_kernel_does_not_list_addresses_the_host_name_says_them(monkeypatch, tmp_path):
    """A laptop in mock mode with no /proc (macOS): the addresses its host name resolves to."""
    routes(monkeypatch, (), None)
    monkeypatch.setattr(socket, "gethostname", lambda: "laptop")
    monkeypatch.setattr(socket, "getaddrinfo", lambda host, port: [
        (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("192.168.1.40", 0)),
        (socket.AF_INET6, socket.SOCK_STREAM, 6, "", ("fd00::40", 0, 0, 0))])
    assert network.names(tmp_path / "missing") == {"laptop", "laptop.local", "127.0.0.1", "192.168.1.40",
                                                   "fd00::40"}
