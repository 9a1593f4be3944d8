"""Where phones find the box."""
import socket

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


def box_url(host, port):
    """The URL phones open; a box serving on every interface names its LAN address."""
    if host in ("0.0.0.0", "", "::"):
        host = lan_address()
    return f"http://{host}:{port}"


def join_url(url):
    """What the QR code holds: uppercase, so it fits alphanumeric mode at version 2 (the box accepts /JOIN)."""
    return f"{url}/join".upper()
