"""Search performance: index build time per version, cold open, query latency.

    .venv/bin/python bench/search.py [--versions 22.12,26.03] [--repeat 5] [--cr-dir ../shared/cr]

Prints, for each CR version: the time `build_index` takes (best and median of --builds runs;
target at most 1.0 s), the cold open of the built index (new `Searcher` plus its first query,
median of several opens; target at most 100 ms) and in-process query latency over the
evaluation sets (bench/relevance_set.json, relevance_holdout.json and relevance_questions.json),
p50 and p99 (targets 3 ms and 15 ms).

With ``--sources``, also the search box's default: one query over every source (rules of the
latest version, cards and rulings from ../shared/nrdb/v2, judge items from ../shared/judge),
merged by `rules_index.unified.search_sources`, over the same queries (built into a temporary
directory first; p50/p99 wall and CPU per query).

With ``--long``, only posts of 200 to 2,000 characters (a board described, then the question),
each timed through the whole uncached /api/search answer (`question.focus` bounds the work).

With ``--mix``, only the HTTP bench's 40 searches (`bench/http_load.py --only nocache`), each
timed alone through the whole uncached /api/search answer: which queries cost most, and where.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# the rules' sentence embeddings are read from this cache (made by the first run; see bench/build.py)
os.environ.setdefault("NRRULES_EMBED_CACHE", str(ROOT / ".embed-cache"))

from rules_index import bank, embeddings  # noqa: E402
from rules_index.search import Searcher, build_index  # noqa: E402
from scraper import parse_html  # noqa: E402

VERSIONS = ["22.12", "23.08", "24.03", "25.04", "25.08", "26.03"]
DEFAULT_CR_DIR = Path(os.environ.get("NRRULES_CR_DIR", ROOT.parent / "shared" / "cr"))
SET_PATHS = [Path(__file__).with_name(f"relevance_{n}.json") for n in ("set", "holdout", "questions")]


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def bench_version(
    version: str, cr_dir: Path, queries: list[str], repeat: int, builds: int, sentence: bool = True
) -> dict:
    path = cr_dir / f"cr-{version}.html"
    doc = parse_html(path.read_bytes(), str(path))
    with tempfile.TemporaryDirectory() as tmp:
        build_times, build_cpu = [], []
        index_dir = None
        for i in range(builds):
            index_dir = Path(tmp) / f"search{i}"
            index_dir.mkdir()
            t, c = time.perf_counter(), time.process_time()
            build_index(doc, index_dir)
            build_times.append(time.perf_counter() - t)
            build_cpu.append(time.process_time() - c)
        # the rules' sentence embeddings as a build writes them (`rules_index.embeddings`; from
        # the cache: their build cost is `bench/build.py`'s), so questions are timed with them
        if sentence:
            embeddings.write_rules(
                doc,
                index_dir,
                embeddings.cache_dir(Path(tmp)),
                bank.for_doc(doc, labelled=bank.labelled()),
            )
        opens = []
        for _ in range(5):
            t = time.perf_counter()
            searcher = Searcher(index_dir, doc)
            searcher.search("jack out", limit=10)
            opens.append(time.perf_counter() - t)
            searcher.close()
        searcher = Searcher(index_dir, doc)
        for q in queries:  # warm-up: first use of each word list, caches
            searcher.search(q, limit=10)
        latencies, cpu = [], []
        for _ in range(repeat):
            for q in queries:
                embeddings.forget_queries()  # each question embedded as a new one is
                t, c = time.perf_counter(), time.process_time()
                searcher.search(q, limit=10)
                latencies.append(time.perf_counter() - t)
                cpu.append(time.process_time() - c)
        searcher.close()
    size = sum(f.stat().st_size for f in index_dir.iterdir()) if index_dir and index_dir.exists() else None
    return {
        "version": version,
        "nodes": len(doc.nodes),
        "build_s_best": min(build_times),
        "build_s_median": statistics.median(build_times),
        "build_cpu_s_best": min(build_cpu),
        "open_ms_median": statistics.median(opens) * 1000,
        "query_ms_p50": percentile(latencies, 50) * 1000,
        "query_ms_p99": percentile(latencies, 99) * 1000,
        "query_cpu_ms_p50": percentile(cpu, 50) * 1000,
        "query_cpu_ms_p99": percentile(cpu, 99) * 1000,
        "queries": len(latencies),
        "index_bytes": size,
    }


def bench_sources(version: str, cr_dir: Path, queries: list[str], repeat: int, sentence: bool = True) -> dict:
    """Per-query latency of the unified search over every built source."""
    from relevance import build_all_sources

    from rules_index.unified import available_sources, search_sources

    with tempfile.TemporaryDirectory() as tmp:
        library = build_all_sources(version, cr_dir, Path(tmp) / "build")
        sources = available_sources(library)
        library.searcher(version).use_embeddings(sentence)
        for q in queries:  # warm-up: word lists, caches
            search_sources(library, q, version, sources)
        latencies, cpu = [], []
        for _ in range(repeat):
            for q in queries:
                embeddings.forget_queries()  # each question embedded as a new one is
                t, c = time.perf_counter(), time.process_time()
                search_sources(library, q, version, sources)
                latencies.append(time.perf_counter() - t)
                cpu.append(time.process_time() - c)
    return {
        "version": version,
        "sources": sources,
        "query_ms_p50": percentile(latencies, 50) * 1000,
        "query_ms_p99": percentile(latencies, 99) * 1000,
        "query_cpu_ms_p50": percentile(cpu, 50) * 1000,
        "query_cpu_ms_p99": percentile(cpu, 99) * 1000,
        "query_cpu_ms_mean": statistics.mean(cpu) * 1000,
        "queries": len(latencies),
    }


def bench_mix(build_dir: str | None, repeat: int) -> list[dict]:
    """Per query of the HTTP bench's search mix (`http_load.QUERIES`, what `--only nocache`
    sends): CPU ms of the whole uncached /api/search answer as a worker makes it (every built
    source, the payload, JSON), of its rules search and of its card and ruling search alone,
    and the JSON size. The median of ``repeat`` runs after a warm-up, in a build directory
    (default: the one the server uses)."""
    from http_load import QUERIES

    from rules_index.store import Library
    from rules_index.unified import available_sources, card_hits
    from webapp import liveserver
    from webapp.jsonprovider import dumps_bytes
    from webapp.payloads import search as search_payload
    from webapp.payloads.context import Rules

    library = Library.open(liveserver.ensure_build(build_dir))
    rules = Rules(library)
    version = library.latest
    searcher = library.searcher(version)
    sources = available_sources(library)
    store = library.cards() if "cards" in sources else None

    def cpu_ms(fn) -> float:
        times = []
        for _ in range(repeat):
            c = time.process_time()
            fn()
            times.append(time.process_time() - c)
        return statistics.median(times) * 1000

    rows = []
    for q in QUERIES:
        whole = lambda q=q: dumps_bytes(search_payload.search(rules, q, version))  # noqa: E731
        whole()  # warm-up: the word lists this query reads
        rows.append(
            {
                "q": q,
                "whole_ms": cpu_ms(whole),
                "rules_ms": cpu_ms(lambda q=q: searcher.search_result(q, 10, snippets=False)),
                "cards_ms": cpu_ms(lambda q=q: card_hits(store, q, ("cards", "rulings"), 10))
                if store
                else 0.0,
                "bytes": len(whole()),
            }
        )
    return rows


# A forum post (written for this bench): a board described at length, the question at the end.
LONG_POST = (
    "Last night my opponent had a Tollbooth rezzed on R&D and an Ice Wall behind it, and I had "
    "Corroder and Gordian Blade installed with four credits in my pool after installing a program. "
    "When I approached Tollbooth its ability triggered and I could not pay the three credits, so "
    "the run ended and we argued about whether I could have jacked out first. "
)
LONG_QUESTION = "When exactly can the Runner jack out, and could I have jacked out before paying?"


def bench_long(build_dir: str | None, repeat: int) -> list[dict]:
    """CPU ms of the whole uncached /api/search answer (every built source) for a post of 200 to
    2,000 characters: the board described, then its question (`question.focus` bounds the work
    to the question and the cards the post names). Median of ``repeat`` runs after a warm-up."""
    from rules_index.store import Library
    from webapp import liveserver
    from webapp.jsonprovider import dumps_bytes
    from webapp.payloads import search as search_payload
    from webapp.payloads.context import Rules

    library = Library.open(liveserver.ensure_build(build_dir))
    rules = Rules(library)
    version = library.latest
    rows = []
    for size in (200, 500, 1000, 1500, 2000):
        board = (LONG_POST * 10)[: max(0, size - len(LONG_QUESTION) - 1)]
        q = (
            (board.rsplit(" ", 1)[0] + ". " + LONG_QUESTION)[-size:]
            if size > len(LONG_QUESTION)
            else LONG_QUESTION
        )
        whole = lambda q=q: dumps_bytes(search_payload.search(rules, q, version))  # noqa: E731
        whole()
        times = []
        for _ in range(repeat):
            c = time.process_time()
            whole()
            times.append(time.process_time() - c)
        rows.append({"chars": len(q), "cpu_ms": statistics.median(times) * 1000})
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--versions", default=",".join(VERSIONS))
    ap.add_argument("--cr-dir", type=Path, default=DEFAULT_CR_DIR)
    ap.add_argument("--repeat", type=int, default=5, help="passes over the query set")
    ap.add_argument("--builds", type=int, default=3, help="index builds per version")
    ap.add_argument("--json", action="store_true")
    ap.add_argument(
        "--mix",
        action="store_true",
        help="only the HTTP bench's 40 searches, one by one: CPU ms of each uncached /api/search "
        "answer (and of its rules and card parts), slowest first",
    )
    ap.add_argument("--build-dir", default=os.environ.get("NRRULES_BUILD_DIR"), help="for --mix and --long")
    ap.add_argument(
        "--sources", action="store_true", help="also time one search over every source (latest version)"
    )
    ap.add_argument(
        "--long",
        action="store_true",
        help="only posts of 200 to 2,000 characters: CPU ms of each uncached /api/search answer",
    )
    ap.add_argument(
        "--no-embeddings", action="store_true", help="without the rules' sentence embeddings (for comparison)"
    )
    args = ap.parse_args(argv)
    if args.long:
        print(f"{'characters':>10} {'CPU ms':>8}  (whole /api/search answer, every built source, median)")
        for r in bench_long(args.build_dir, max(5, args.repeat)):
            print(f"{r['chars']:10d} {r['cpu_ms']:8.2f}")
        return 0
    if args.mix:
        mix = sorted(bench_mix(args.build_dir, max(3, args.repeat)), key=lambda r: -r["whole_ms"])
        print(f"{'query':22} {'whole ms':>9} {'rules ms':>9} {'cards ms':>9} {'JSON B':>7}  (CPU, median)")
        for r in mix:
            print(
                f"{r['q']:22} {r['whole_ms']:9.2f} {r['rules_ms']:9.2f} {r['cards_ms']:9.2f} {r['bytes']:7d}"
            )
        whole = [r["whole_ms"] for r in mix]
        print(
            f"mean {statistics.mean(whole):.2f} ms, slowest/fastest {max(whole) / min(whole):.1f}x; "
            f"the rest of 'whole' is merging, snippets, the payload and JSON"
        )
        if args.json:
            print(json.dumps(mix, indent=1))
        return 0
    queries = [q["q"] for p in SET_PATHS for q in json.loads(p.read_text(encoding="utf-8"))["queries"]]
    rows = []
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"load average {load:.2f} on {os.cpu_count()} CPUs (wall times suffer on a busy machine; CPU times less)"
    )
    print(
        f"{'version':8} {'nodes':>6} {'build best/med s':>17} {'build cpu':>9} {'open ms':>8} "
        f"{'p50 ms':>7} {'p99 ms':>7} {'cpu p50':>8} {'cpu p99':>8}"
    )
    for version in args.versions.split(","):
        r = bench_version(
            version.strip(), args.cr_dir, queries, args.repeat, args.builds, not args.no_embeddings
        )
        rows.append(r)
        print(
            f"{r['version']:8} {r['nodes']:6} {r['build_s_best']:8.3f}/{r['build_s_median']:.3f} "
            f"{r['build_cpu_s_best']:9.3f} {r['open_ms_median']:8.1f} {r['query_ms_p50']:7.2f} "
            f"{r['query_ms_p99']:7.2f} {r['query_cpu_ms_p50']:8.2f} {r['query_cpu_ms_p99']:8.2f}"
        )
    print("targets: build <= 1.0 s, open <= 100 ms, p50 <= 3 ms, p99 <= 15 ms")
    if args.sources:
        version = args.versions.split(",")[-1].strip()
        r = bench_sources(version, args.cr_dir, queries, args.repeat, not args.no_embeddings)
        rows.append(r)
        print(
            f"\nall sources ({', '.join(r['sources'])}), CR {version}, {r['queries']} searches: "
            f"p50 {r['query_ms_p50']:.2f} ms, p99 {r['query_ms_p99']:.2f} ms; "
            f"cpu p50 {r['query_cpu_ms_p50']:.2f}, p99 {r['query_cpu_ms_p99']:.2f}, mean {r['query_cpu_ms_mean']:.2f} ms"
        )
    if args.json:
        print(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
