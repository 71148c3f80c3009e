"""Benchmark: the NetrunnerDB card build, its cold open and its lookups.

    python bench/cards.py [--nrdb-dir ../shared/nrdb/v2] [--repeat 3]

Runs in a fresh child process so peak memory (max RSS) is the card build's own. Prints seconds
(best of --repeat) for reading + validating the folder, for the whole build (read, legality,
cards.json, Whoosh index), for opening the build, and per-query latency of name lookup
(and of the name matcher: its build, misspelt names, the names of a 2,000-character post) and
search; peak memory traced for reading and the process's max RSS.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def measure(nrdb_dir: str, repeat: int) -> dict:
    from rules_index.cards import CardStore, build_cards
    from scraper.nrdb import load

    load_times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        data = load(nrdb_dir)
        load_times.append(time.perf_counter() - t0)
    tracemalloc.start()
    load(nrdb_dir)
    _, load_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    build_times, open_times = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(repeat):
            t0 = time.perf_counter()
            build_cards(nrdb_dir, Path(tmp), force=True)
            build_times.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        build_cards(nrdb_dir, Path(tmp))
        unchanged = time.perf_counter() - t0
        for _ in range(repeat):
            t0 = time.perf_counter()
            store = CardStore.open(tmp)
            open_times.append(time.perf_counter() - t0)
        names = ["Snare!", "sn@re", "deja vu", "ice wall", "hedge fund", "Sure Gamble", "35074", "corroder"]
        t0 = time.perf_counter()
        for _ in range(20):
            for n in names:
                store.find(n)
        find_ms = (time.perf_counter() - t0) * 1000 / (20 * len(names))
        # the one name matcher (issue 34): its build per card build, misspelt, plural and partial
        # names, and the card names of a 2,000-character post
        from rules_index.cards import NameMatcher

        t0 = time.perf_counter()
        NameMatcher(store._data.cards)
        matcher_ms = (time.perf_counter() - t0) * 1000
        typed = ["tolbooth", "funhose", "corodder", "hostile takover", "Mediums", "reality plus", "alice"]
        typed += ["steelskin", "score", "zzzzzzzzzzzz"]
        t0 = time.perf_counter()
        for _ in range(20):
            for n in typed:
                store.match(n)
        typo_ms = (time.perf_counter() - t0) * 1000 / (20 * len(typed))
        post = ("My opponent had a Tollbooth on R&D and I had Corroder and Ice Wall; can I jack out? " * 30)[
            :2000
        ]
        t0 = time.perf_counter()
        for _ in range(20):
            store.matcher.mentioned(post)
        mentioned_ms = (time.perf_counter() - t0) * 1000 / 20
        queries = ["end the run", "net damage", "can the runner trash", "Snare!", "bypass ice", "tag"]
        store.search("warm")
        t0 = time.perf_counter()
        for _ in range(10):
            for q in queries:
                store.search(q)
        search_ms = (time.perf_counter() - t0) * 1000 / (10 * len(queries))
    return {
        "cards": len(data.cards),
        "rulings": len(data.rulings),
        "load_s": min(load_times),
        "load_peak_traced_mb": load_peak / 2**20,
        "build_s": min(build_times),
        "unchanged_s": unchanged,
        "open_s": min(open_times),
        "find_ms": find_ms,
        "matcher_ms": matcher_ms,
        "typo_ms": typo_ms,
        "mentioned_ms": mentioned_ms,
        "search_ms": search_ms,
        "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nrdb-dir", default=str(ROOT.parent / "shared" / "nrdb" / "v2"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(measure(args.nrdb_dir, args.repeat)))
        return
    out = subprocess.run(
        [sys.executable, __file__, "--child", "--nrdb-dir", args.nrdb_dir, "--repeat", str(args.repeat)],
        check=True,
        capture_output=True,
        text=True,
    )
    r = json.loads(out.stdout)
    print(f"card data: {r['cards']} cards, {r['rulings']} rulings from {args.nrdb_dir}")
    print(f"read + validate   {r['load_s']:7.2f} s   (traced peak {r['load_peak_traced_mb']:.0f} MB)")
    print(f"whole build       {r['build_s']:7.2f} s")
    print(f"unchanged rebuild {r['unchanged_s']:7.2f} s")
    print(f"open the build    {r['open_s']:7.3f} s")
    print(f"name lookup       {r['find_ms']:7.2f} ms / query")
    print(f"name matcher      {r['matcher_ms']:7.1f} ms to build (once per opened card build)")
    print(f"misspelt names    {r['typo_ms']:7.3f} ms / query (typos, plurals, parts)")
    print(f"names in a post   {r['mentioned_ms']:7.3f} ms / 2,000-character post")
    print(f"search            {r['search_ms']:7.2f} ms / query")
    print(f"max RSS           {r['max_rss_mb']:7.0f} MB")


if __name__ == "__main__":
    main()
