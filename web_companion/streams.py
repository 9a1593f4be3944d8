"""Live updates: every phone waits on one condition that the table's subscription wakes."""
import threading


class Changes:
    def __init__(self, table):
        self.table = table
        self._changed = threading.Condition()
        table.subscribe(self._notify)

    def _notify(self, version):
        with self._changed:
            self._changed.notify_all()

    def wait(self, since, timeout):
        """Block until the table's version differs from `since` (or the timeout); True if it does."""
        with self._changed:
            return self._changed.wait_for(lambda: self.table.version != since, timeout)
