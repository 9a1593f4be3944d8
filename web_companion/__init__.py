"""The box's web side: a Flask application factory, one blueprint per concern."""
from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException

from . import api, host, pages, seat, virtual_box
from .streams import Changes


def create_app(box, *, mock=False):
    app = Flask(__name__)
    app.config.update(BOX=box, MOCK=mock)
    app.json.sort_keys = False
    init_app(app, box)
    for blueprint in (pages.bp, api.bp, seat.bp, host.bp):
        app.register_blueprint(blueprint)
    if mock:
        app.register_blueprint(virtual_box.bp)

    @app.errorhandler(HTTPException)
    def http_error(error):
        return jsonify(error=error.description), error.code

    return app


def init_app(app, box):
    """Services the blueprints share: the change feed every phone waits on."""
    app.config["CHANGES"] = Changes(box.table, box.display)
