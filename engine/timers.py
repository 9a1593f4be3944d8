"""The real clock's way of running something later; tests inject their own."""
import threading
from collections.abc import Callable


def later(delay: float, callback: Callable[[], object]) -> Callable[[], None]:
    """Run callback after `delay` seconds on a daemon thread; returns a function that cancels it."""
    timer = threading.Timer(delay, callback)
    timer.daemon = True
    timer.start()
    return timer.cancel
