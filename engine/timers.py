"""The real clock's way of running something later: one thread for every delay of the box (the reveal delay, the
power-off hold, a pairing code's end, a pad's debounce), started when first needed. Tests inject their own."""
import heapq
import itertools
import logging
import threading
import time
from collections.abc import Callable

log = logging.getLogger(__name__)


class Scheduler:
    """Runs each callback once its delay is over, in the order they fall due, on one thread of its own. It is
    called as a `schedule(delay, callback)` function, which returns a function that cancels the callback.
    `close()` cancels every callback not yet run and ends the thread."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._due: list[tuple[float, int, list[Callable[[], object] | None]]] = []  # a heap, soonest first
        self._order = itertools.count()  # callbacks due at the same time run in the order they were given
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closed = False

    def __call__(self, delay: float, callback: Callable[[], object]) -> Callable[[], None]:
        entry: list[Callable[[], object] | None] = [callback]
        with self._changed:
            if self._closed:
                return lambda: None
            heapq.heappush(self._due, (self._clock() + delay, next(self._order), entry))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="scheduler", daemon=True)
                self._thread.start()
            self._changed.notify()

        def cancel() -> None:
            entry[0] = None  # left in the heap: skipped when it falls due
        return cancel

    def _run(self) -> None:
        while (callback := self._next()) is not None:
            try:
                callback()
            except Exception:  # one failing callback must not end the others'
                log.exception("a scheduled callback failed")

    def _next(self) -> Callable[[], object] | None:
        """The next callback due, once it is (None once closed)."""
        with self._changed:
            while not self._closed:
                while self._due and self._due[0][2][0] is None:
                    heapq.heappop(self._due)  # cancelled
                if not self._due:
                    self._changed.wait()
                    continue
                wait = self._due[0][0] - self._clock()
                if wait <= 0:
                    return heapq.heappop(self._due)[2][0]
                self._changed.wait(wait)
            return None

    @property
    def pending(self) -> int:
        """How many callbacks are waiting to run (cancelled ones not counted)."""
        with self._changed:
            return sum(entry[0] is not None for _, _, entry in self._due)

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._due.clear()
            self._changed.notify()
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(5)
