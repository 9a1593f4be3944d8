"""Where phones find the box."""
import socket


def lan_address():
    """The box's address on the local network: the one its default route leaves from. Connecting a UDP
    socket sends nothing; with no network at all the box is only reachable from itself."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def box_url(host, port):
    """The URL phones open; a box serving on every interface names its LAN address."""
    if host in ("0.0.0.0", "", "::"):
        host = lan_address()
    return f"http://{host}:{port}"


def join_url(url):
    """What the QR code holds: uppercase, so it fits alphanumeric mode at version 2 (the box accepts /JOIN)."""
    return f"{url}/join".upper()
