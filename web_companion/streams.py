"""Live updates: every phone waits on one condition that the table's and the display's subscriptions wake."""
import threading


class Changes:
    def __init__(self, table, display):
        self.table, self.display = table, display
        self._changed = threading.Condition()
        table.subscribe(self._notify)
        display.subscribe(self._notify)

    def _notify(self, _):
        with self._changed:
            self._changed.notify_all()

    def health(self):
        """What the phones say about the box itself (not the game): whether its display answers, and whether
        its storage takes writes ("ok", "full" or "failing": nothing is acknowledged until it does)."""
        return {"display": self.display.status, "storage": self.table.fault or "ok"}

    def wait(self, since, timeout, health=None):
        """Block until the table's version differs from `since`, or the box's health from `health` when given
        (or the timeout); True if one does."""
        with self._changed:
            return self._changed.wait_for(
                lambda: self.table.version != since or (health is not None and self.health() != health), timeout)
