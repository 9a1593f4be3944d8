"""The box's web side: a Flask application factory, one blueprint per concern."""
import logging

from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException

from .pairing import PairingRefused
from engine.journal import StorageError

from . import api, content_policy, host, host_names, pages, pair_link, same_origin, seat, virtual_box
from .services import KEY, Services, services
from .streams import Changes
from .texts import word
from .viewers import language

# Bytes a request's body may hold: the largest a phone sends, a Leader 1 game with every option at its fullest
# (three decks of 120 tiles, ten stages), is 1.7 KB. The server refuses more before reading it
# (device/server.py); the app refuses it under any server.
MAX_BODY = 16 * 1024


def create_app(box, *, virtual=None, names=None):
    """The web app of `box`, a BoxPort (web_companion/port.py: all the web side may ask of the box); in mock mode
    `virtual` is the virtual box (device/virtual_box.py) its page works. `names()`: the names and addresses the
    box is reached by now (device/network.py); it answers no other (None: only localhost)."""
    app = Flask(__name__)
    app.config.update(MAX_CONTENT_LENGTH=MAX_BODY)
    app.json.sort_keys = False
    app.extensions[KEY] = Services(box, Changes(box), virtual)
    box.subscribe_presses(lambda key, outcome: _pad_refused(services(app).changes, key, outcome))
    content_policy.init_app(app)
    host_names.init_app(app, names)  # first: a request for another name is read no further
    same_origin.init_app(app)
    for blueprint in (pages.bp, api.bp, seat.bp, host.bp, pair_link.bp):
        app.register_blueprint(blueprint)
    if virtual is not None:  # mock mode
        app.register_blueprint(virtual_box.bp)

    @app.errorhandler(HTTPException)
    def http_error(error):
        if error.response is not None:  # already answered in full (a refusal in the page's language)
            return error.response
        return jsonify(error=error.description), error.code

    @app.errorhandler(StorageError)
    def storage_error(error):
        """Nothing was written, so nothing was done: the phone is told why, by name (507 for a full disk)."""
        logging.getLogger(__name__).error("%s", error)
        code = "storage_full" if error.full else "storage_failing"
        return jsonify(error=word(language(), code), code=code), 507 if error.full else 503

    @app.errorhandler(PairingRefused)
    def not_paired(error):
        """A code the box does not show, one too many wrong codes closed, a link whose code is over (403), or
        too many wrong codes from this address (429, and when to try again)."""
        if error.key != "pair_rate":
            return jsonify(error=word(language(), error.key), code=error.key), 403
        response = jsonify(error=word(language(), error.key, seconds=error.seconds), code=error.key,
                           seconds=error.seconds)
        response.headers["Retry-After"] = str(error.seconds)
        return response, 429

    return app


def _pad_refused(changes, key, outcome):
    """A refused pad press's reason goes to that seat's phone alone."""
    if key[0] == "seat" and "refusal" in outcome:
        changes.refused(key[1], outcome["refusal"].message)
