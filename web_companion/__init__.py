"""The box's web side: a Flask application factory, one blueprint per concern."""
from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException

from . import api, virtual_box


def create_app(box, *, mock=False):
    app = Flask(__name__)
    app.config.update(BOX=box, MOCK=mock, JSON_SORT_KEYS=False)
    app.json.sort_keys = False
    app.register_blueprint(api.bp)
    if mock:
        app.register_blueprint(virtual_box.bp)

    @app.errorhandler(HTTPException)
    def http_error(error):
        return jsonify(error=error.description), error.code

    return app
