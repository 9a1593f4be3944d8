"""Where phones find the box, and the names it is reached by."""
import ipaddress
import socket
from pathlib import Path

# Where the box looks for its network: anywhere through the default route, else the network a Pi makes as
# NetworkManager's Wi-Fi hotspot (10.42.0.0/24, which has no default route).
PROBES = ("10.254.254.254", "10.42.0.254")


def lan_address(probes=PROBES):
    """The box's address on the local network: the one a packet to the first reachable probe would leave
    from. Connecting a UDP socket sends nothing; with no network at all the box is only reachable from
    itself."""
    for address in probes:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            try:
                probe.connect((address, 1))
                return probe.getsockname()[0]
            except OSError:
                continue
    return "127.0.0.1"


def names(proc=Path("/proc/net")):
    """Every name the box is reached by now (web_companion/host_names.py answers no other): its host name, that
    name under `.local` (mDNS, as Raspberry Pi OS announces it) and each of its addresses. Read afresh on each
    call: the addresses change when the box joins another Wi-Fi."""
    host = socket.gethostname().lower()
    return {host, f"{host}.local", lan_address(), *addresses(proc, host)}


def addresses(proc, host):
    """The machine's own addresses: on Linux every local IPv4 address (the kernel's routing table marks each
    "/32 host LOCAL") and every IPv6 one; elsewhere (a laptop in mock mode) what its host name resolves to."""
    try:
        trie, inet6 = (proc / "fib_trie").read_text(), (proc / "if_inet6").read_text()
    except OSError:
        try:
            return {info[4][0] for info in socket.getaddrinfo(host, None)}
        except OSError:
            return set()
    found, last = set(), None
    for line in trie.splitlines():
        if "|--" in line:
            last = line.split("|--")[1].strip()
        elif "/32 host LOCAL" in line and last:
            found.add(last)
    for line in inet6.splitlines():
        if line.split():
            found.add(str(ipaddress.IPv6Address(bytes.fromhex(line.split()[0]))))
    return found


LOCAL_URL = "http://127.0.0.1"  # where a box that was given no URL (tests) says phones join


def box_url(host, port):
    """The URL phones open; a box serving on every interface names its LAN address."""
    if host in ("0.0.0.0", "", "::"):
        host = lan_address()
    return f"http://{host}:{port}"


def join_url(url):
    """What the QR code holds: uppercase, so it fits alphanumeric mode at version 2 (the box accepts /JOIN)."""
    return f"{url}/join".upper()


def link_url(url, key):
    """The link of a pairing code's QR code: the page at /P/<key> pairs the phone that opens it. Uppercase, as
    `join_url`: with the longest address and port (HTTP://255.255.255.255:65535/P/ and a 10-character key, 41
    characters) it fits version 2 at level L, with a usual one (HTTP://192.168.1.23:8000/P/…, 37) at level M."""
    return f"{url}/P/{key}".upper()
