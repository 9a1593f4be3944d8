"""The one place the web side reaches into waitress: writing a response's next bytes to its connection from any
thread (web_companion/streams.py writes each change to every phone that follows live, from one thread, waking
none of theirs). Waitress gives no handle on the connection but the documented `waitress.client_disconnected`
callable, the bound method of the connection's channel, whose `write_soon` its own threads write through; and
a response of unknown length under HTTP/1.1 is chunked, so the bytes written here are framed as waitress frames
its own. tests/test_adapters.py checks, on the waitress the lock installs, that a client reads what is written."""
from collections.abc import Callable, Mapping

STALLED = 1 << 20  # bytes a phone may leave unread before the box stops writing to it


def connection_writer(environ: Mapping[str, object]) -> Callable[[bytes], None] | None:
    """Under waitress, a callable that writes bytes to the response's connection; None under any other server."""
    channel = getattr(environ.get("waitress.client_disconnected"), "__self__", None)
    if not hasattr(channel, "write_soon") or not hasattr(channel, "total_outbufs_len"):
        return None
    chunked = environ.get("SERVER_PROTOCOL") == "HTTP/1.1"

    def write(data: bytes) -> None:
        if channel.total_outbufs_len > STALLED:  # write_soon would block until the phone reads
            raise ConnectionError(f"{channel.total_outbufs_len} bytes unread")
        channel.write_soon(b"%X\r\n%s\r\n" % (len(data), data) if chunked else data)
    return write
