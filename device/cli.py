"""The `arbitro` command: `arbitro replay LOG` checks a game log; `arbitro [--mock]` runs the box."""
import argparse
import json
import sys
from pathlib import Path

from engine.replay import LogError, replay


def replay_main(argv):
    parser = argparse.ArgumentParser(prog="arbitro replay", description="Replay a game log and print its "
                                     "final public view; exit 1 at the first line that breaks a rule.")
    parser.add_argument("log", type=Path, help="a JSON Lines game log")
    parser.add_argument("--json", action="store_true", help="print the final public view as one JSON object")
    parser.add_argument("--seed", type=int, help="draw the chance outcomes the log lacks from this seed")
    args = parser.parse_args(argv)
    try:
        text = args.log.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        parser.exit(2, f"arbitro replay: cannot read {args.log}: {e}\n")
    try:
        record = replay(text, seed=args.seed)
    except LogError as e:
        print(f"arbitro replay: {args.log}: {e}", file=sys.stderr)
        return 1
    shown = record.view("public")
    if args.json:
        print(json.dumps(shown, ensure_ascii=False))
    else:
        print(summary(shown))
    return 0


def summary(shown):
    """A few lines for a person reading a replay in a terminal."""
    seats = ", ".join(f"seat {s + 1}: {p}" for s, p in enumerate(shown.get("positions", [])))
    lines = [f"{shown['game']}: match {shown.get('match')}, {'over' if shown['over'] else 'in play'}",
             f"positions: {seats}"]
    result = shown["result"]
    if result and result["draw"]:
        lines.append("result: a draw")
    elif result:
        lines.append("winners: " + ", ".join(f"seat {s + 1}" for s in result["winners"]))
        lines.append("losers: " + ", ".join(f"seat {s + 1}" for s in result["losers"]))
    return "\n".join(lines)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["replay"]:
        return replay_main(argv[1:])
    from .box import box_main
    return box_main(argv)


if __name__ == "__main__":
    sys.exit(main())
