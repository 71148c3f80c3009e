"""Benchmark: rule history and "what changed" for every built CR version, and judge documents.

    python bench/history.py [--cr-dir ../shared/cr] [--judge ../shared/judge/...html] [--repeat 5]

Builds the six versions once into a temporary directory, then prints (best of --repeat):

* what the history step adds to a full build: loading the built documents and computing and
  writing the changes between every consecutive pair (target: <= 1 s in total);
* one changes payload: a stored consecutive pair and an arbitrary pair computed on demand;
* one rule's history (all versions, diffs);
* the judge build and a judge search.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))


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


if __name__ == "__main__":
    main()
