"""Benchmark: scraper stage and whole build, per CR version; and a card build over them.

    python bench/build.py [--cr-dir ../shared/cr] [--repeat 5]
    python bench/build.py --cards ../shared/nrdb/v2 [--cr-dir ../shared/cr]

--cards: builds the versions into a temporary directory, then times `nrrules build --cards`'s
work there (the card build, then the re-index of the versions whose questions change, each
phase by version), wall and CPU seconds; then the same card build again with a ruling added
that cites no rule (the versions' indexes stay: only their keys change).
CPU seconds are shown beside wall seconds: on a machine shared with other work they vary less.

Each version is measured in a fresh child process so peak memory (max RSS) is per version.
Prints seconds (best of --repeat) and peak memory for parse+extract (the scraper stage) and
for the whole build (parse, verify, write JSON, build the search index). Target for the
scraper stage: <= 0.6 s per version on a 2-core machine.

The rules' sentence embeddings come from the cache at ``NRRULES_EMBED_CACHE`` (default
``.embed-cache`` in the checkout, shared with the tests and the other benches): without it each
temporary build would embed every rule and question again (minutes of CPU, not the build's
own cost). The first run on a fresh checkout fills it.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("NRRULES_EMBED_CACHE", str(ROOT / ".embed-cache"))


def measure_one(path: Path, repeat: int) -> dict:
    from rules_index.store import build
    from scraper import parse_html

    data = path.read_bytes()
    parse_times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        doc = parse_html(data, str(path))
        parse_times.append(time.perf_counter() - t0)
    tracemalloc.start()
    parse_html(data, str(path))
    _, parse_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss_after_parse = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    build_times = []
    cpu_times = []
    phases: dict[str, float] = {}
    for _ in range(max(1, repeat // 2)):
        with tempfile.TemporaryDirectory() as tmp:
            t0, c0 = time.perf_counter(), time.process_time()
            result = build(str(path), Path(tmp), force=True)[0]
            build_times.append(time.perf_counter() - t0)
            cpu_times.append(time.process_time() - c0)
            if cpu_times[-1] == min(cpu_times):
                phases = dict(result.phases)
    rss_after_build = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return {
        "version": doc.version,
        "bytes": len(data),
        "nodes": len(doc.nodes),
        "parse_s": min(parse_times),
        "parse_peak_traced": parse_peak,
        "parse_rss": rss_after_parse,
        "build_s": min(build_times),
        "build_cpu_s": min(cpu_times),
        "phases": phases,
        "build_rss": rss_after_build,
    }


def measure_cards(cr_dir: Path, nrdb: Path) -> None:
    """The card build with every version present: `nrrules build --cards`'s work, timed."""
    import json
    import shutil

    from rules_index.cards import build_cards
    from rules_index.store import build, phase_line, refresh_questions

    def timed(what: str, fn):
        t0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        print(f"{what}: {time.perf_counter() - t0:.2f} s wall, {time.process_time() - c0:.2f} s CPU")
        return out

    with tempfile.TemporaryDirectory() as tmp:
        bdir = Path(tmp) / "build"
        timed("the CR versions", lambda: build(str(cr_dir), bdir))

        def cards(source: Path) -> None:
            c = timed("  card build", lambda: build_cards(str(source), bdir))
            print(f"    {c.status}, {c.cards} cards, {c.rulings} rulings")
            done = timed(
                "  re-index",
                lambda: refresh_questions(bdir, progress=lambda v, p: print(f"    {v}: {phase_line(p)}")),
            )
            print(f"    re-indexed: {', '.join(done) or 'none'}")

        timed("card build with the versions present", lambda: cards(nrdb))
        folder = Path(tmp) / "nrdb"
        shutil.copytree(nrdb, folder)
        path = folder / "rulings" / "acacia.json"
        rulings = json.loads(path.read_text())
        rulings.append({**rulings[0], "question": "Is this in rule 99.9.9?", "answer": "No."})
        path.write_text(json.dumps(rulings))
        timed("card build again, a ruling citing no rule added", lambda: cards(folder))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cr-dir", default=str(ROOT.parent / "shared" / "cr"))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--one", help=argparse.SUPPRESS)
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    ap.add_argument("--cards", help="a NetrunnerDB v2 folder: time a card build over the versions")
    args = ap.parse_args()
    if args.cards:
        measure_cards(Path(args.cr_dir), Path(args.cards))
        return
    if args.one:
        print(json.dumps(measure_one(Path(args.one), args.repeat)))
        return
    files = sorted(Path(args.cr_dir).glob("cr-*.html"))
    if not files:
        sys.exit(f"no cr-*.html files in {args.cr_dir}")
    rows = []
    for f in files:
        out = subprocess.run(
            [sys.executable, __file__, "--one", str(f), "--repeat", str(args.repeat)],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        rows.append(json.loads(out.stdout.strip().splitlines()[-1]))
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    mb = 1024 * 1024
    print(
        f"{'version':8} {'size':>8} {'nodes':>6} {'parse+extract':>14} {'traced peak':>12} "
        f"{'RSS':>8} {'whole build':>12} {'CPU':>7} {'RSS':>8}"
    )
    for r in rows:
        print(
            f"{r['version']:8} {r['bytes'] / mb:7.2f}M {r['nodes']:6d} {r['parse_s']:13.3f}s "
            f"{r['parse_peak_traced'] / mb:11.1f}M {r['parse_rss'] / mb:7.0f}M {r['build_s']:11.3f}s "
            f"{r['build_cpu_s']:6.2f}s {r['build_rss'] / mb:7.0f}M"
        )
    from rules_index.store import phase_line

    for r in rows:
        print(f"  {r['version']} phases (the build of least CPU): {phase_line(r['phases'])}")
    worst = max(r["parse_s"] for r in rows)
    print(f"slowest scraper stage: {worst:.3f} s (target <= 0.600 s): {'OK' if worst <= 0.6 else 'MISSED'}")


if __name__ == "__main__":
    main()
