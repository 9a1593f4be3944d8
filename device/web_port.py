"""The box as the web side may reach it: web_companion/port.py's `BoxPort`, made of the box's parts. The
composition root (device/cli.py) hands this to `create_app`."""
from typing import TYPE_CHECKING

from device.display import qr_code  # absolute: tests/test_types.py checks this module copied on its own
from device.network import LOCAL_URL, link_url


class WebPort:
    """`BoxPort` over a Box: each call goes to the part of the box that answers it."""

    def __init__(self, box):
        self._box, self._table, self._pairing, self._display = box, box.table, box.pairing, box.display
        self.host_buttons = tuple(box.host_buttons)
        self.power_off_hold = box.power_off_hold

    # -- the table, read
    @property
    def version(self):
        return self._table.version

    @property
    def game(self):
        return self._table.game

    @property
    def game_id(self):
        return self._table.game_id

    @property
    def seats(self):
        return self._table.seats

    @property
    def storage(self):
        moment = self._table.moment
        return moment.fault or ("lost" if moment.lost else "ok")

    def seen(self, version):
        self._table.seen(version)

    def snapshot(self, read):
        return self._table.snapshot(read)

    def subscribe(self, listener):
        self._table.subscribe(listener)

    # -- the box
    def subscribe_presses(self, listener):
        self._box.subscribe_presses(listener)

    @property
    def wired_seats(self):
        return self._box.wired_seats

    @property
    def language(self):
        return self._box.language.value

    @property
    def display_status(self):
        return self._display.status

    @property
    def frame(self):
        return self._display.frame

    def subscribe_display(self, listener):
        self._display.subscribe(listener)

    # -- inputs
    def seat_act(self, seat, action):
        return self._box.seat_act(seat, action)

    def new_game(self, game, seats, options=None):
        self._box.new_game(game, seats, options)

    def undo(self):
        self._box.undo()

    def end_game(self):
        self._box.end_game()

    def set_language(self, language):
        self._box.set_language(language)

    # -- phones
    def pair_code(self, target):
        return self._box.pair_code(target)

    @property
    def pairing_window(self):
        return self._pairing.window

    def pair(self, code, address):
        return self._box.pair(code, address)

    def pair_link(self, key):
        return self._box.pair_link(key)

    def code_link(self, key):
        return link_url(self._box.url or LOCAL_URL, key)

    def qr_code(self, text):
        code = qr_code(text)
        return None if code is None else ["".join(map(str, row)) for row in code]

    def seat_of(self, token):
        """The seat `token` holds in the game in play (a token is good for every game with its seat count)."""
        return None if self._table.game is None else self._pairing.seat_of(token, self._table.seats)

    def is_host(self, token):
        return self._pairing.is_host(token)

    def lost(self, token):
        return self._pairing.lost(token)

    def has_phone(self, seat):
        return self._box.has_phone(seat)

    # -- records
    def export(self, game_id=None):
        return self._table.export(game_id)

    def history(self):
        return self._table.history()

    def backup(self, path):
        self._table.backup(path)


if TYPE_CHECKING:  # the type checker holds it to the port
    from web_companion.port import BoxPort

    def _is_a_port(box: object) -> BoxPort:
        return WebPort(box)
