"""The JSON API: the table's public view."""
from flask import Blueprint, current_app, jsonify

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.get("/table")
def table():
    return jsonify(current_app.config["BOX"].table.view("public"))
