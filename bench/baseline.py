"""The baseline the box is measured against: a bare Flask app on waitress (as the box serves) that keeps one
JSON document, serves it (`GET /api/table`), streams it to every phone on each change (`GET /api/stream`,
server-sent events) and changes it on each `POST /api/press`. A press may say the document's size from then on
(`{"size": bytes}`): the benches give each press the size of the view the box sent for the same press, so the
phones get a same-size event from both. No game, no pads, no OLED: what any web app doing the box's job for the
phones would cost.

Run by hand: `.venv/bin/python bench/baseline.py --port 8100 [--size 2000]`; the benches start it themselves."""
import argparse
import json
import threading

import waitress
from flask import Flask, Response, request


def create_app(size):
    app = Flask(__name__)
    changed = threading.Condition()
    state = {"version": 1, "size": size}

    def document():
        """The document, `size` bytes long (or as short as it can be)."""
        bare = json.dumps({"version": state["version"], "padding": ""})
        return json.dumps({"version": state["version"], "padding": "x" * max(0, state["size"] - len(bare))})

    @app.get("/api/table")
    def table():
        return Response(document(), mimetype="application/json")

    @app.post("/api/press")
    def press():
        size = (request.get_json(silent=True) or {}).get("size")
        with changed:
            if isinstance(size, int):
                state["size"] = size
            state["version"] += 1
            changed.notify_all()
        return {"version": state["version"]}

    @app.get("/api/stream")
    def stream():
        def events():
            seen = None
            while True:
                with changed:
                    changed.wait_for(lambda: state["version"] != seen, timeout=30)
                    seen, data = state["version"], document()
                yield f"id: {seen}\nevent: view\ndata: {data}\n\n".encode()
        return Response(events(), mimetype="text/event-stream")

    return app


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--size", type=int, default=2000,
                        help="the document's size in bytes, until a press says another")
    args = parser.parse_args()
    waitress.serve(create_app(args.size), host="127.0.0.1", port=args.port, threads=80, connection_limit=2000,
                   channel_timeout=60, asyncore_use_poll=True, ident="baseline", _quiet=True)


if __name__ == "__main__":
    main()
