"""The one place the web side reaches into waitress: a response's connection, written to from any thread
(web_companion/streams.py writes each change to every phone that follows live, from one thread, waking none of
theirs) and waited on by the response's own thread until the phone leaves. Waitress gives no handle on the
connection but the documented `waitress.client_disconnected` callable, the bound method of the connection's
channel, whose `write_soon` its own threads write through; a response of unknown length under HTTP/1.1 is
chunked, so the bytes written here are framed as waitress frames its own; and waitress notifies the channel's
`outbuf_lock` as it closes the connection (to wake a thread waiting to write to it), so a thread waiting on it
wakes as the phone leaves. tests/test_adapters.py and tests/test_limits.py check, on the waitress the lock
installs, that a client reads what is written and that its leaving wakes the thread at once."""
from collections.abc import Callable, Mapping
from typing import Any

# Bytes a phone may leave unread before the box stops writing to it: each event is a whole view (a few KB), so a
# phone cut off loses nothing (it reconnects and reads the view as it is then). WAITERS phones that read
# nothing hold 20 MB at most; under waitress's outbuf_overflow (1 MiB: in memory, never in a file on the SD
# card) and outbuf_high_watermark (16 MiB: writing never blocks the thread that writes to every phone).
STALLED = 64 * 1024


class Connection:
    """A response's connection under waitress. Called with bytes, writes them from any thread."""

    def __init__(self, channel: Any, gone: Callable[[], bool], chunked: bool) -> None:
        self._channel, self._gone, self._chunked = channel, gone, chunked

    def __call__(self, data: bytes) -> None:
        channel = self._channel
        if channel.total_outbufs_len > STALLED:  # write_soon would block until the phone reads
            raise ConnectionError(f"{channel.total_outbufs_len} bytes unread")
        channel.write_soon(b"%X\r\n%s\r\n" % (len(data), data) if self._chunked else data)

    @property
    def gone(self) -> bool:
        """Whether the phone has left (closed its end, or could not be written to)."""
        return self._gone()

    def wait(self, until: Callable[[], bool], timeout: float) -> bool:
        """Block until `until()` holds or the phone has gone (True), or `timeout` seconds pass (False)."""
        changed = self._channel.outbuf_lock
        with changed:
            return bool(changed.wait_for(lambda: until() or self._gone(), timeout))

    def wake(self) -> None:
        """Have a thread in `wait` look at `until()` again."""
        changed = self._channel.outbuf_lock
        with changed:
            changed.notify_all()

    @staticmethod
    def taken() -> list[bytes]:
        """Nothing waits for the response's own thread to send: every write goes straight to the connection."""
        return []


def connection_writer(environ: Mapping[str, object]) -> Connection | None:
    """Under waitress, the response's connection; None under any other server."""
    gone = environ.get("waitress.client_disconnected")
    channel = getattr(gone, "__self__", None)
    if not callable(gone) or not all(hasattr(channel, name) for name in ("write_soon", "total_outbufs_len",
                                                                          "outbuf_lock")):
        return None
    return Connection(channel, gone, environ.get("SERVER_PROTOCOL") == "HTTP/1.1")
