"""Benchmark: rule history and "what changed" for every built CR version, and judge documents.

    python bench/history.py [--cr-dir ../shared/cr] [--judge ../shared/judge/...html] [--repeat 5]

Builds the six versions once into a temporary directory, then prints (best of --repeat):

* what the history step adds to a full build: computing and writing the changes between
  every two versions (15 pairs for six versions; target: <= 1 s in total);
* one changes payload: a stored pair, and a distant pair computed without the stored file;
* one rule's history (all versions, diffs);
* the judge build and a judge search;
* HTTP (a real gunicorn worker on loopback, `bench/http_load.py`'s server): the first request
  of each judge and history page ("cold": nothing of that page computed or cached yet) and the
  median of the next --repeat x 4 ("warm"); target for a changes page: < 100 ms.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def best(fn, repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cr-dir", default=str(ROOT.parent / "shared" / "cr"))
    ap.add_argument("--judge", default=str(ROOT.parent / "shared" / "judge" / "judge-reference-excerpt.html"))
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()

    from rules_index.history import HISTORY_FILE, HistoryStore, build_history, history
    from rules_index.judge import JudgeStore, build_judge
    from rules_index.store import Library, build

    with tempfile.TemporaryDirectory() as tmp:
        build_dir = Path(tmp) / "build"
        t0 = time.perf_counter()
        build(args.cr_dir, build_dir)
        print(f"full build (6 versions, with history):  {time.perf_counter() - t0:7.2f} s")
        path = build_dir / HISTORY_FILE

        docs = Library.open(build_dir).documents()

        def history_step() -> None:
            path.unlink(missing_ok=True)
            build_history(docs, path)

        # A full build has every document in memory: this is what history adds to it.
        b, m = best(history_step, args.repeat)
        print(
            f"history step of a full build (5 pairs + write): best {b * 1000:7.1f} ms  median {m * 1000:7.1f} ms"
        )

        def incremental() -> None:
            path.unlink(missing_ok=True)
            build_history(Library.open(build_dir).documents(), path)

        b, m = best(incremental, args.repeat)
        print(
            f"  same, loading all 6 documents from disk first: best {b * 1000:7.1f} ms  median {m * 1000:7.1f} ms"
        )
        print(f"  stored file: {path.stat().st_size / 1024:.0f} KiB")

        store = HistoryStore(docs, path)
        b, m = best(lambda: store.changes("25.08", "26.03"), args.repeat)
        print(f"changes 25.08..26.03 (stored pair):      best {b * 1000:7.3f} ms  median {m * 1000:7.3f} ms")

        def fresh_pair() -> None:
            HistoryStore(docs).changes("22.12", "26.03")

        b, m = best(fresh_pair, args.repeat)
        print(f"changes 22.12..26.03 (computed):         best {b * 1000:7.1f} ms  median {m * 1000:7.1f} ms")
        b, m = best(lambda: history(docs, "rule_jacking_out"), args.repeat * 20)
        print(f"history of one rule (6 versions):        best {b * 1000:7.3f} ms  median {m * 1000:7.3f} ms")

        b, m = best(lambda: build_judge(args.judge, build_dir, force=True), args.repeat)
        print(f"judge build (excerpt, forced):           best {b * 1000:7.1f} ms  median {m * 1000:7.1f} ms")
        judge = JudgeStore.open(build_dir)
        qs = ["player drew too many cards", "revealed top of R&D", "three warnings", "take back"]
        b, m = best(lambda: [judge.search(q) for q in qs], args.repeat * 10)
        print(f"judge search (4 queries):                best {b * 1000:7.2f} ms  median {m * 1000:7.2f} ms")
        lib = Library.open(build_dir)
        b, m = best(lambda: JudgeStore.open(build_dir).resolved(lib), args.repeat)
        print(f"judge citations + timing map resolved:   best {b * 1000:7.1f} ms  median {m * 1000:7.1f} ms")
        http_pages(str(build_dir), judge.items()[0].id, args.repeat)


def _get(url: str) -> float:
    t0 = time.perf_counter()
    with urllib.request.urlopen(url, timeout=30) as resp:
        resp.read()
        assert resp.status == 200, (url, resp.status)
    return time.perf_counter() - t0


def http_pages(build_dir: str, item_id: str, repeat: int) -> None:
    """Cold and warm HTTP times of the judge and history pages on a real server."""
    spec = importlib.util.spec_from_file_location("bench_http", ROOT / "bench" / "http_load.py")
    http_load = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(http_load)
    proc, base = http_load.start_server(build_dir, 1, "gthread", 1, True)
    try:
        _get(base + "/r/1.1.1")  # the worker loads the build: not part of any page below
        paths = [
            "/changes/25.08..26.03",
            "/changes/22.12..26.03",
            "/changes/23.08..25.08",
            "/api/changes/24.03..26.03",
            "/api/changes/22.12..25.04",
            "/r/6.1.5",
            "/api/history/6.1.5",
            f"/j/{item_id}",
            f"/api/judge/{item_id}",
            "/api/search?q=player+drew+too+many+cards&source=judge",
            "/api/search?q=player+drew+too+many+cards",
        ]
        print("HTTP, one gunicorn worker (cold = first request of that page; warm = median of the next):")
        for path in paths:
            cold = _get(base + path)
            warm = statistics.median(_get(base + path) for _ in range(repeat * 4))
            print(f"  {path:58} cold {cold * 1000:7.1f} ms  warm {warm * 1000:6.1f} ms")
    finally:
        proc.terminate()
        proc.wait(timeout=10)


if __name__ == "__main__":
    main()
