"""Benchmark: rendering hostile card text (issue 38) is linear in its length.

    python bench/hostile_text.py [--build-dir DIR] [--sizes 20000,200000]

For each hostile text (200,000 "[" made /api/cards/<id> hang before) at each size, prints the
seconds taken by `scraper.nrdb.plain_text`, by the whole card payload (`webapp.payloads.cards.card`:
the card page's HTML with keyword and symbol links) and by the engine's reading of the card
(`engine.cardtext.board_card`), and the ratio of the largest size's time to the smallest's: about
the ratio of the sizes when linear (10 for 20,000 -> 200,000), about its square when quadratic.
The card payload needs a build with card data (`nrrules build --cards`); without one it is skipped.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ICON = '<span class="icon icon-credit"></span>'
CASES = {
    "[": lambda n: "[" * n,
    "<": lambda n: "<" * n,
    "]": lambda n: "]" * n,
    "[x](": lambda n: "[x](" * (n // 4),
    "[a](b": lambda n: "[a](b" * (n // 5),
    "icon span": lambda n: ICON * (n // len(ICON)),
    "open span": lambda n: '<span class="icon icon-' * (n // 23),
    "[<(": lambda n: "[<(" * (n // 3),
    "newlines": lambda n: "\n" * n,
    "blanks+<ul>": lambda n: " " * n + "<ul>",
    "blanks+<em>": lambda n: " " * n + "<em>(x)</em>",
    "if tagged": lambda n: "[subroutine] " + " if the runner is tagged" * (n // 24),
    "words": lambda n: "end the run " * (n // 12),
}


def _time(fn, *args) -> float:
    t0 = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build-dir", default=None, help="a build with card data (default: NRRULES_BUILD_DIR)")
    ap.add_argument("--sizes", default="20000,200000")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]

    from engine.cardtext import board_card
    from scraper.nrdb import Card, plain_text

    payload = None
    try:
        from webapp import create_app
        from webapp.library import rules
        from webapp.payloads import cards as pc

        app = create_app({"TESTING": True, "BUILD_DIR": args.build_dir})
        ctx = app.test_request_context("/")
        ctx.push()
        base = pc.find(rules(), "ice_wall")
        pc.card(rules(), base)  # warm: keyword table, documents

        def payload(text: str) -> None:
            pc.card(rules(), dataclasses.replace(base, text=text))
    except Exception as exc:  # no build with cards: the payload column is skipped
        print(f"(card payload skipped: {type(exc).__name__}: {str(exc)[:100]})")

    def engine(text: str) -> None:
        board_card(Card("x", "X", "X", "ice", "corp", "nbn", text=text, strength=1, cost=1), {})

    steps = [("plain_text", plain_text), ("card payload", payload), ("board_card", engine)]
    head = f"{'text':14s} {'step':13s}" + "".join(f"{n:>10d}" for n in sizes) + "   ratio"
    print(head)
    worst = 0.0
    for name, make in CASES.items():
        for step, fn in steps:
            if fn is None:
                continue
            times = [_time(fn, make(n)) for n in sizes]
            worst = max(worst, times[-1])
            ratio = times[-1] / max(times[0], 1e-4)
            print(f"{name:14s} {step:13s}" + "".join(f"{t:9.3f}s" for t in times) + f"  {ratio:6.1f}")
    print(f"slowest at {sizes[-1]} characters: {worst:.3f} s")


if __name__ == "__main__":
    main()
