"""The box answers only the names it is reached by. A page on another site cannot read the box's answers, but it
can make its own name point at the box (DNS rebinding): its requests then carry its name in `Host` and in
`Origin`, alike, and pass as the box's own. So on every route a request naming another host is refused (421,
Misdirected Request) before anything else reads it: the box's addresses and names (handed in by the composition
root, device/network.py's `names`), and localhost, with or without a port."""
import ipaddress

from flask import request

from .viewers import fail

LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})


def init_app(app, names=None):
    """`names()`: the box's names and addresses now; None: the box is reached only as localhost."""
    known = [LOOPBACK]

    def listed():
        return LOOPBACK | {normal(n) for n in (names() if names else ())}

    def refuse_other_names():
        name = host_name(request.host)
        if name in known[0]:
            return
        known[0] = listed()  # asked again: the box may be on another network since (a new Wi-Fi, a new address)
        if name not in known[0]:
            fail(421, "host_name")
    app.before_request(refuse_other_names)


def host_name(host):
    """The name of a Host header, as `normal` writes it: its port, an IPv6 address's brackets and a final dot
    dropped; None when it is no host name at all."""
    if host.startswith("["):
        name, _, port = host[1:].partition("]")
        port = port.removeprefix(":")
    else:
        name, _, port = host.rpartition(":") if ":" in host else (host, "", "")
    if port and not port.isdigit():
        return None
    return normal(name)


def normal(name):
    """A name in lower case without its final dot; an address as Python writes it (::1, not 0:0:…:1)."""
    name = name.lower().removesuffix(".")
    try:
        return str(ipaddress.ip_address(name))
    except ValueError:
        return name
