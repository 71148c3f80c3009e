"""Benchmark: hostile search queries (issue 38) answer in bounded time.

    python bench/hostile_queries.py [--build-dir DIR] [--runs 30] [--cases word200,post2000]

Each case makes a fresh query per run (random letters: no answer cache helps) and times the whole
uncached /api/search answer over every built source (Flask test client, one thread), printing
p50, p99 and max wall seconds, CPU p50, and the searched work counted in Whoosh: the fuzzy terms
built (`levenshtein_automaton` calls) and the longest of them, in characters (a Levenshtein
automaton costs about its term's length times the edit distance; a 200-character word was the
one request over 1 s in the issue's 41,508). Run it before and after a change to the bound
(`webapp.payloads.search.MAX_WORD`); ``uptime`` is printed first, since the machine is shared.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import string
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("NRRULES_EMBED_CACHE", str(ROOT / ".embed-cache"))

QUESTION = " Can the Runner jack out before paying for Tollbooth?"


def _cases(rng: random.Random) -> dict:
    def word(n: int, letters: str = string.ascii_lowercase) -> str:
        return "".join(rng.choice(letters) for _ in range(n))

    def words(n: int, size: int) -> str:
        return " ".join(word(size) for _ in range(n))

    return {
        "normal": lambda: "can the runner jack out after " + word(6),
        "word200": lambda: word(200),
        "word2000": lambda: word(2000),
        "alnum200": lambda: word(200, string.ascii_lowercase + string.digits),
        "words8x22": lambda: words(22, 8),
        "words40x4": lambda: words(4, 40),
        "post2000": lambda: words(300, 6)[: 2000 - len(QUESTION) - 1] + "." + QUESTION,
        "post2000-1word": lambda: word(2000 - len(QUESTION) - 1) + "?" + QUESTION,
        "post2000-noq": lambda: words(400, 4)[:2000],
        "post2000-longq": lambda: word(1990) + " " + word(5) + "?",
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build-dir", default=None, help="a build (default: NRRULES_BUILD_DIR)")
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--cases", default="", help="comma-separated case names (default: all)")
    ap.add_argument("--seed", type=int, default=38)
    args = ap.parse_args()

    import whoosh.automata.lev as lev

    from webapp import create_app

    print("uptime:", os.popen("uptime").read().strip())
    counted: list[int] = []
    real = lev.levenshtein_automaton

    def counting(term, k, prefix=0):  # what Whoosh builds per fuzzy term, counted, then built as is
        counted.append(len(term))
        return real(term, k, prefix)

    lev.levenshtein_automaton = counting  # whoosh.codec.base calls it through the module
    # warmed as a production worker is (NRRULES_PRELOAD): the first question's model loads are not timed
    bdir = args.build_dir or os.environ.get("NRRULES_BUILD_DIR")
    app = create_app({"TESTING": True, "BUILD_DIR": bdir, "PRELOAD": True})
    client = app.test_client()
    for warm in ("ice wall", "can the runner jack out?", "zzqqxx", "Tollbooth"):
        client.get("/api/search", query_string={"q": warm})

    cases = _cases(random.Random(args.seed))
    names = [c for c in args.cases.split(",") if c] or list(cases)
    print(
        f"{'case':16s} {'p50 s':>8s} {'p99 s':>8s} {'max s':>8s} {'cpu50 s':>8s} {'fuzzy':>6s} {'longest':>8s}"
    )
    worst = 0.0
    for name in names:
        wall, cpu, terms, longest = [], [], [], 0
        for _ in range(args.runs):
            q = cases[name]()
            counted.clear()
            t0, c0 = time.perf_counter(), time.process_time()
            r = client.get("/api/search", query_string={"q": q})
            wall.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            if r.status_code != 200:
                print(f"  {name}: HTTP {r.status_code} {r.get_data(as_text=True)[:120]}")
            terms.append(len(counted))
            longest = max([longest, *counted])
        wall.sort()
        p99 = wall[min(len(wall) - 1, round(0.99 * (len(wall) - 1)))]
        worst = max(worst, wall[-1])
        print(
            f"{name:16s} {statistics.median(wall):8.3f} {p99:8.3f} {wall[-1]:8.3f} "
            f"{statistics.median(cpu):8.3f} {max(terms):6d} {longest:8d}"
        )
    print(f"slowest answer: {worst:.3f} s")


if __name__ == "__main__":
    main()
