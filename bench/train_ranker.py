"""Train the learned second stage of search (`rules_index.ranker`) and write its weights.

    .venv/bin/python bench/train_ranker.py [--cr-dir ../shared/cr] [--folds 5] [--check]

Training queries (never the held-out sets): the main set's question and paraphrase queries
(``bench/relevance_set.json``), ``bench/relevance_tuning.json`` and every
``bench/relevance_train*.json`` present (``relevance_train.json`` to ``relevance_train5.json``).
It first writes them, under the rules answering them, to ``rules_index/labelled.json``
(`rules_index.bank.labelled`, leaving out any sharing half its words with a held-out query): the
product's index holds them in its ``asked`` field. The index is built as ``bench/relevance.py``
builds it (expanded with the rulings' and judges' questions citing rules from ../shared, as the
product's is with its card and judges' builds), once per cross-validation fold: a fold's queries
are ranked on an index holding every training question but theirs, so that no query finds
itself among a rule's questions (`training_queries`). For each query the ranker applies to, the
searcher gives its
top `ranker.DEPTH` candidates in the hand-written order and their features
(`Searcher.rank_inputs`); a candidate is relevant if it is one of the query's answers.

Three models are trained on the same queries and folds and written to the one file: the full
one (every feature, the word vectors' included: `rules_index.vectors`), the ``lite`` one (the
`ranker.LITE_FEATURES`), for a searcher without vectors, and the ``pack`` one
(`ranker.PACK_FEATURES`: the lite features, two cosines by the small table the offline copy
carries, and the three ``t_*`` features by its cut-down translation table). The full model
reads the whole word-translation table (`rules_index.translation`, ``t_*`` features).
Measured 2026-11-27 with the training questions indexed (`training_queries`) and the fourth and
fifth training sets: 2,297 queries, full 0.885 / 0.980, lite 0.836 / 0.952, pack 0.868 / 0.971
(these sets hold harder queries: many board situations and shorthand). Like for like, on the
1,485 queries of the four earlier sets (5-fold, paired, by a scratch copy of this pipeline): the
other folds' questions indexed, MRR@10 0.885 -> 0.892 (+0.007, SE 0.004); with the two new sets
indexed and trained on too, 0.899 (+0.008, SE 0.003, over the 0.892). Before them
(1,485 training queries the ranker applies to, short questions included
since `ranker.applies` takes any query phrased as a question, everyday words no longer
"corrected", `Searcher.surface_words`, and the candidates the word vectors add,
`ranker.VECTOR_POOL`; answers audited, see the training sets' ``about``): full 0.885 / 0.982
cross-validated MRR@10 / recall@5, lite 0.837 / 0.952 (its candidates include the vectors' here,
never in search), pack 0.878 / 0.978. Without the vectors' candidates: 0.881 / 0.972, 0.839 /
0.948, 0.874 / 0.970; with the old spelling correction too: 0.879 / 0.970, 0.832 / 0.939,
0.871 / 0.969. On the 1,398 longer ones before that: full 0.883 / 0.969 (0.875 without the
``t_*`` features), lite 0.832 / 0.940, pack 0.870 / 0.968 (0.861 / 0.962 without them). Before
the audit (2026-11-26): full 0.853 / 0.962, lite 0.813 / 0.931, pack 0.842 / 0.956.

Model: linear, trained listwise (softmax cross-entropy of the relevant candidates, the loss of
putting an answer first) with L2 regularisation, by full-batch Adam on standardised features,
in pure Python, deterministically (fixed folds, fixed iterations, no randomness). The
regularisation is chosen by k-fold cross-validation over the training queries (folds by query
position); the script prints, per setting, the cross-validated MRR@10 and recall@5 of the
reordered lists against the hand-written order on the same held-back queries, then fits the
chosen setting on every training query and writes ``rules_index/ranker_weights.json``. The
weights are only used by the searcher if the cross-validated MRR beats the hand-written order
(``"use": false`` otherwise). ``--check`` recomputes them and fails if the committed file differs.

``--trees`` also cross-validates, on the same folds, LambdaMART (gradient-boosted regression
trees of depth `TREE_DEPTH` with the LambdaRank objective, pure Python): alone, and boosted
from the linear model. On the 569 question-like training queries of the sets before
relevance_train2.json grew to 474 questions (CR 26.03, pool of 40, ``--trees``): trees alone MRR@10 0.658 / recall@5 0.812, boosted from the linear model
0.674 / 0.824, the linear model alone 0.673 / 0.837. No gain worth a second model, so the
product ships the linear model and evaluates no trees.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import re
import sys
import tempfile
from bisect import bisect_right
from math import exp, log2, sqrt
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from relevance import (  # noqa: E402
    DEFAULT_CR_DIR,
    HOLDOUT_PATH,
    QUESTIONS_PATH,
    load_doc,
    load_set,
    source_questions,
    write_or_check,
)

from rules_index import bank, embeddings, ranker  # noqa: E402
from rules_index.expansion import question_log  # noqa: E402
from rules_index.search import Searcher, build_index, index_words  # noqa: E402
from rules_index.vectors import VECTORS_PATH  # noqa: E402

BENCH = ROOT / "bench"
TRAINING = (
    (BENCH / "relevance_set.json", ("question", "paraphrase")),
    (BENCH / "relevance_tuning.json", None),
    # every training set present: relevance_train.json, relevance_train2.json, ...
    *((path, None) for path in sorted(BENCH.glob("relevance_train*.json"))),
)
HELD_OUT_PATHS = (HOLDOUT_PATH, QUESTIONS_PATH)
NEAR_HELD_OUT = 0.5  # token-set Jaccard at which a training question is too near a held-out one
LAMBDAS = (0.003, 0.01, 0.03, 0.1)
ITERATIONS = 200
LEARNING_RATE = 0.05

Query = tuple[str, list[list[float]], list[int]]  # (query, vectors, labels), hand order


def training_items(doc) -> list[tuple[str, set[str]]]:
    """Every training query once (first set first), with its answers that ``doc`` has."""
    out: list[tuple[str, set[str]]] = []
    seen: set[str] = set()
    for path, types in TRAINING:
        for item in load_set(path):
            if (types is not None and item.get("type") not in types) or item["q"] in seen:
                continue
            seen.add(item["q"])
            out.append((item["q"], {a for a in item["answers"] if a in doc}))
    return out


def _words(text: str) -> frozenset[str]:
    return frozenset(re.findall(r"[a-z0-9']+", text.lower()))


def labelled(items: list[tuple[str, set[str]]], leave_out: set[str] = frozenset()) -> dict[str, list[str]]:
    """Rule id -> the training questions it answers (`rules_index.bank.labelled`), none of
    ``leave_out`` and none sharing `NEAR_HELD_OUT` of its words (token-set Jaccard) with a
    held-out query: the index must not hold a copy of what it is measured on."""
    held = [_words(q["q"]) for path in HELD_OUT_PATHS for q in load_set(path)]
    out: dict[str, list[str]] = {}
    for q, answers in items:
        words = _words(q)
        if q in leave_out or any(len(words & h) >= NEAR_HELD_OUT * len(words | h) for h in held):
            continue
        for a in sorted(answers):
            out.setdefault(a, []).append(q)
    return out


def labelled_file(items: list[tuple[str, set[str]]]) -> str:
    questions = labelled(items)
    data = {
        "about": (
            "The ranker's training questions (bench/relevance_set.json's questions and paraphrases, "
            "relevance_tuning.json, relevance_train*.json) under the rules answering them, for the "
            "index's asked field (rules_index.bank.labelled). Written by bench/train_ranker.py; "
            f"questions sharing {NEAR_HELD_OUT} of their words with a held-out query are left out."
        ),
        "questions": dict(sorted(questions.items())),
    }
    return json.dumps(data, indent=0, ensure_ascii=False) + "\n"


def training_queries(
    doc, folds: int, work: Path, embed: bool = False
) -> tuple[list[Query], list[Query], int]:
    """The queries the ranker applies to, with their candidates' features (full, and by the
    offline copy's small table) and labels; and the number of training queries read.

    The index holds the training questions (`labelled`), so a query's features must come from
    an index without it, or ``q_best`` would find the query itself: the queries are split into
    the cross-validation's folds (by position), and each fold is ranked on an index holding the
    other folds' questions. The final weights are fitted on these out-of-fold features too."""
    items = training_items(doc)
    log = question_log(doc, source_questions(), index_words)

    def searchers(leave_out: set[str], name: str) -> tuple[Searcher, Searcher]:
        path = work / name
        path.mkdir()
        asked = bank.for_doc(doc, log, labelled=labelled(items, leave_out))
        build_index(doc, path, asked=asked)
        # the rules' sentence embeddings, as a build writes them: the ``e_*`` features (``--embed``)
        if embed and embeddings.write_rules(doc, path, embeddings.cache_dir(work), asked) is None:
            raise SystemExit(f"error: {embeddings.status()}")
        full = Searcher(path, doc)
        if full.vectors is None:
            raise SystemExit(f"error: no word vectors at {VECTORS_PATH} (bench/word_vectors.py)")
        return full, Searcher(path, doc, word_vectors="pack")

    # whether the ranker applies depends on the query only, not on the questions indexed
    probe, small = searchers(set(), "all")
    applied = [(q, answers) for q, answers in items if probe.rank_inputs(q) is not None]
    probe.close()
    small.close()
    out: list[Query | None] = [None] * len(applied)
    out_small: list[Query | None] = [None] * len(applied)
    for f in range(folds):
        held = {i for i in range(len(applied)) if i % folds == f}
        full, small = searchers({applied[i][0] for i in held}, f"fold{f}")
        for i in sorted(held):
            q, answers = applied[i]
            for searcher, into in ((full, out), (small, out_small)):
                ids, vectors = searcher.rank_inputs(q)
                into[i] = (q, vectors, [1 if x in answers else 0 for x in ids])
        full.close()
        small.close()
    return out, out_small, len(items)


def _scores(w: list[float], vectors: list[list[float]]) -> list[float]:
    return [sum(a * b for a, b in zip(w, v, strict=True)) for v in vectors]


def fit(queries: list[Query], lam: float) -> list[float]:
    """Raw-feature weights minimising the mean listwise loss + lam * |w|^2 (standardised)."""
    rows = [v for _, vectors, _ in queries for v in vectors]
    dim = len(rows[0])
    mean = [sum(r[j] for r in rows) / len(rows) for j in range(dim)]
    std = [sqrt(sum((r[j] - mean[j]) ** 2 for r in rows) / len(rows)) or 1.0 for j in range(dim)]
    data = []
    for _, vectors, labels in queries:
        if 0 < sum(labels) < len(labels):
            data.append(
                ([[(x - m) / s for x, m, s in zip(v, mean, std, strict=True)] for v in vectors], labels)
            )
    w = [0.0] * dim
    m1 = [0.0] * dim
    m2 = [0.0] * dim
    b1, b2 = 0.9, 0.999
    for step in range(1, ITERATIONS + 1):
        grad = [2 * lam * x for x in w]
        for vectors, labels in data:
            s = _scores(w, vectors)
            top = max(s)
            e = [exp(x - top) for x in s]
            z = sum(e)
            zr = sum(x for x, y in zip(e, labels, strict=True) if y)
            for v, ex, y in zip(vectors, e, labels, strict=True):
                coef = (ex / z - (ex / zr if y else 0.0)) / len(data)
                if coef:
                    for j in range(dim):
                        grad[j] += coef * v[j]
        for j in range(dim):
            m1[j] = b1 * m1[j] + (1 - b1) * grad[j]
            m2[j] = b2 * m2[j] + (1 - b2) * grad[j] ** 2
            w[j] -= LEARNING_RATE * (m1[j] / (1 - b1**step)) / (sqrt(m2[j] / (1 - b2**step)) + 1e-8)
    return [round(wj / sj, 6) for wj, sj in zip(w, std, strict=True)]


def metrics(queries: list[Query], w: list[float] | None) -> tuple[float, float]:
    """(MRR@10, recall@5) over ``queries``: hand order when ``w`` is None, else by ``w``."""
    rr = hit5 = 0.0
    for _, vectors, labels in queries:
        order = list(range(len(labels)))
        if w is not None:
            s = _scores(w, vectors)
            order.sort(key=lambda k: (-s[k], k))
        rank = next((i + 1 for i, k in enumerate(order[:10]) if labels[k]), None)
        rr += 1.0 / rank if rank else 0.0
        hit5 += 1.0 if rank and rank <= 5 else 0.0
    n = max(1, len(queries))
    return rr / n, hit5 / n


def cross_validate(queries: list[Query], lam: float, folds: int) -> tuple[float, float]:
    """Cross-validated (MRR@10, recall@5): each fold ranked by the model fitted on the others."""
    rr = hit5 = 0.0
    for f in range(folds):
        train = [q for i, q in enumerate(queries) if i % folds != f]
        test = [q for i, q in enumerate(queries) if i % folds == f]
        mrr, r5 = metrics(test, fit(train, lam))
        rr += mrr * len(test)
        hit5 += r5 * len(test)
    return rr / len(queries), hit5 / len(queries)


# ----------------------------------------------------------------------------------------------
# LambdaMART (--trees): gradient-boosted regression trees with the LambdaRank objective, pure
# Python, histogram splits. Compared with the linear model by the same cross-validation; the
# product ships a tree model only if it wins there (it has not: see the module docstring).
# ----------------------------------------------------------------------------------------------
TREES = 100
TREE_DEPTH = 3
TREE_RATE = 0.05
TREE_BINS = 32
TREE_REG = 1.0
TREE_MIN_ROWS = 10

Tree = dict[int, tuple]  # heap-numbered nodes: ("leaf", value) or ("split", feature, threshold)


def _edges(values: list[float], bins: int) -> list[float]:
    """Split thresholds of one feature: its distinct values' quantiles (x < t goes left)."""
    ordered = sorted(values)
    distinct = sorted(set(ordered))
    if len(distinct) <= bins:
        return distinct[1:]
    n = len(ordered)
    return sorted({ordered[k * n // bins] for k in range(1, bins)} - {distinct[0]})


def _lambdas(groups: list[tuple[int, list[int]]], scores: list[float]) -> tuple[list[float], list[float]]:
    """LambdaRank gradients and second derivatives (NDCG swaps, binary relevance)."""
    g = [0.0] * len(scores)
    h = [0.0] * len(scores)
    for start, labels in groups:
        s = scores[start : start + len(labels)]
        order = sorted(range(len(labels)), key=lambda k: (-s[k], k))
        rank = [0] * len(labels)
        for p, k in enumerate(order):
            rank[k] = p
        ideal = sum(1 / log2(2 + p) for p in range(sum(labels)))
        for i in (k for k in range(len(labels)) if labels[k]):
            for j in (k for k in range(len(labels)) if not labels[k]):
                swap = abs(1 / log2(2 + rank[i]) - 1 / log2(2 + rank[j])) / ideal
                rho = 1 / (1 + exp(s[i] - s[j]))
                g[start + i] -= rho * swap
                g[start + j] += rho * swap
                h[start + i] += rho * (1 - rho) * swap
                h[start + j] += rho * (1 - rho) * swap
    return g, h


def _grow(bins: list[list[int]], edges: list[list[float]], g: list[float], h: list[float]) -> Tree:
    """One regression tree of depth `TREE_DEPTH` on the gradients (Newton leaf values)."""
    tree: Tree = {}
    level = [(0, list(range(len(g))))]
    for depth in range(TREE_DEPTH + 1):
        below = []
        for nid, rows in level:
            gs = sum(g[r] for r in rows)
            hs = sum(h[r] for r in rows)
            leaf = ("leaf", -TREE_RATE * gs / (hs + TREE_REG))
            if depth == TREE_DEPTH or len(rows) < 2 * TREE_MIN_ROWS:
                tree[nid] = leaf
                continue
            parent = gs * gs / (hs + TREE_REG)
            best = (1e-9, -1, -1)
            for f, column in enumerate(bins):
                k = len(edges[f]) + 1
                hg = [0.0] * k
                hh = [0.0] * k
                hc = [0] * k
                for r in rows:
                    b = column[r]
                    hg[b] += g[r]
                    hh[b] += h[r]
                    hc[b] += 1
                gl = hl = 0.0
                cl = 0
                for b in range(k - 1):
                    gl += hg[b]
                    hl += hh[b]
                    cl += hc[b]
                    if TREE_MIN_ROWS <= cl <= len(rows) - TREE_MIN_ROWS:
                        gain = gl * gl / (hl + TREE_REG) + (gs - gl) ** 2 / (hs - hl + TREE_REG) - parent
                        if gain > best[0]:
                            best = (gain, f, b)
            _, f, b = best
            if f < 0:
                tree[nid] = leaf
                continue
            tree[nid] = ("split", f, edges[f][b])
            below.append((2 * nid + 1, [r for r in rows if bins[f][r] <= b]))
            below.append((2 * nid + 2, [r for r in rows if bins[f][r] > b]))
        level = below
    return tree


def tree_score(tree: Tree, x: list[float]) -> float:
    n = 0
    while tree[n][0] == "split":
        n = 2 * n + 1 if x[tree[n][1]] < tree[n][2] else 2 * n + 2
    return tree[n][1]


def fit_trees(queries: list[Query], w: list[float] | None = None) -> list[Tree]:
    """`TREES` LambdaMART trees, boosted from the linear scores ``w`` when given."""
    rows: list[list[float]] = []
    groups: list[tuple[int, list[int]]] = []
    for _, vectors, labels in queries:
        if 0 < sum(labels) < len(labels):
            groups.append((len(rows), labels))
            rows.extend(vectors)
    edges = [_edges([r[f] for r in rows], TREE_BINS) for f in range(len(rows[0]))]
    bins = [[bisect_right(edges[f], r[f]) for r in rows] for f in range(len(rows[0]))]
    scores = _scores(w, rows) if w is not None else [0.0] * len(rows)
    trees = []
    for _ in range(TREES):
        tree = _grow(bins, edges, *_lambdas(groups, scores))
        trees.append(tree)
        scores = [s + tree_score(tree, r) for s, r in zip(scores, rows, strict=True)]
    return trees


def cross_validate_trees(queries: list[Query], folds: int, lam: float | None) -> tuple[float, float]:
    """Cross-validated (MRR@10, recall@5) of LambdaMART (boosted from the linear model fitted
    with ``lam`` on the same training folds when ``lam`` is given)."""
    rr = hit5 = 0.0
    for f in range(folds):
        train_q = [q for i, q in enumerate(queries) if i % folds != f]
        test = [q for i, q in enumerate(queries) if i % folds == f]
        w = fit(train_q, lam) if lam is not None else None
        trees = fit_trees(train_q, w)
        scored = []
        for q, vectors, labels in test:
            base = _scores(w, vectors) if w is not None else [0.0] * len(vectors)
            total = [b + sum(tree_score(t, v) for t in trees) for b, v in zip(base, vectors, strict=True)]
            scored.append((q, [[s] for s in total], labels))
        mrr, r5 = metrics(scored, [1.0])
        rr += mrr * len(test)
        hit5 += r5 * len(test)
    return rr / len(queries), hit5 / len(queries)


def _cv_job(job: tuple[str, float, int]) -> tuple[str, float, tuple[float, float]]:
    which, lam, folds = job
    return which, lam, cross_validate(_JOBS[which], lam, folds)


_JOBS: dict[str, list[Query]] = {}  # the training queries of each model, for the worker processes


def _choose(label: str, queries: list[Query], results: dict[float, tuple[float, float]], folds: int) -> dict:
    """The best regularisation by cross-validation, and the weights fitted with it on all
    ``queries``."""
    base_mrr, base_r5 = metrics(queries, None)
    print(f"{label}: hand-written order MRR@10 {base_mrr:.3f}  recall@5 {base_r5:.3f}")
    for lam in LAMBDAS:
        mrr, r5 = results[lam]
        print(f"{label}: lambda {lam:<6}: {folds}-fold cross-validated MRR@10 {mrr:.3f}  recall@5 {r5:.3f}")
    best = max(LAMBDAS, key=lambda lam: (results[lam][0], -lam))
    weights = fit(queries, best)
    train_mrr, _ = metrics(queries, weights)
    print(f"{label}: chosen lambda {best}; training MRR@10 (not a measure of quality) {train_mrr:.3f}")
    return {
        "weights": weights,
        "use": results[best][0] > base_mrr,
        "lambda": best,
        "folds": folds,
        "queries": len(queries),
        "hand_mrr10": round(base_mrr, 4),
        "cv_mrr10": round(results[best][0], 4),
        "cv_recall5": round(results[best][1], 4),
    }


def train(cr_dir: Path, folds: int, trees: bool = False, embed: bool = False) -> dict:
    """The three models: the full one (every feature, word vectors included), the lite one (no
    word-vector features: `ranker.LITE_FEATURES`, a searcher without vectors) and the offline
    copy's (`ranker.PACK_FEATURES`, by the pack's small table), each with its own
    regularisation chosen by cross-validation on the same folds (two processes)."""
    doc = load_doc("26.03", cr_dir)
    with tempfile.TemporaryDirectory() as tmp:
        # the index as bench/relevance.py (and the product with its card and judges' builds) has it
        queries, small, total = training_queries(doc, folds, Path(tmp), embed)
    width = len(ranker.LITE_FEATURES)
    lite = [(q, [v[:width] for v in vecs], labels) for q, vecs, labels in queries]
    meaning = queries  # every feature and the sentence encoder's (`ranker.EMBED_MODEL_FEATURES`)
    queries = [(q, [v[: len(ranker.FEATURES)] for v in vecs], labels) for q, vecs, labels in meaning]
    pack = [(q, [[v[k] for k in ranker.PACK_COLUMNS] for v in vecs], labels) for q, vecs, labels in small]
    print(f"{len(queries)} of {total} training queries are question-like (the ranker applies)")
    _JOBS.update(full=queries, lite=lite, pack=pack, embed=meaning)
    models = ("full", "lite", "pack", "embed") if embed else ("full", "lite", "pack")
    jobs = [(which, lam, folds) for which in models for lam in LAMBDAS]
    with multiprocessing.get_context("fork").Pool(2) as pool:
        done = pool.map(_cv_job, jobs, chunksize=1)
    results: dict[str, dict[float, tuple[float, float]]] = {"full": {}, "lite": {}, "pack": {}, "embed": {}}
    for which, lam, result in done:
        results[which][lam] = result
    full = _choose("with word vectors", queries, results["full"], folds)
    light = _choose("without (lite)", lite, results["lite"], folds)
    offline = _choose("offline copy (pack)", pack, results["pack"], folds)
    encoded = (
        _choose("with the sentence encoder (embed)", meaning, results["embed"], folds) if embed else None
    )
    if trees:
        for label, lam in (
            ("LambdaMART trees", None),
            (f"linear (lambda {full['lambda']}) + LambdaMART trees", full["lambda"]),
        ):
            mrr, r5 = cross_validate_trees(queries, folds, lam)
            print(f"{label}: {folds}-fold cross-validated MRR@10 {mrr:.3f}  recall@5 {r5:.3f}")
    return {
        "about": "Weights of rules_index.ranker, written by bench/train_ranker.py (do not edit by hand).",
        "features": list(ranker.FEATURES),
        **full,
        "lite": {"features": list(ranker.LITE_FEATURES), **light},
        "pack": {"features": list(ranker.PACK_FEATURES), **offline},
        **({"embed": {"features": list(ranker.EMBED_MODEL_FEATURES), **encoded}} if encoded else {}),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cr-dir", type=Path, default=DEFAULT_CR_DIR)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--out", type=Path, default=ranker.WEIGHTS_PATH)
    ap.add_argument("--check", action="store_true", help="fail if the committed weights differ")
    ap.add_argument(
        "--trees",
        action="store_true",
        help="also cross-validate LambdaMART trees (alone and boosted from the linear model; minutes)",
    )
    ap.add_argument("--labelled-out", type=Path, default=bank.LABELLED_PATH)
    ap.add_argument(
        "--embed",
        action="store_true",
        help="also train the model reading the sentence encoder's cosines (ranker.EMBED_MODEL_FEATURES; "
        "embeds each fold's questions; not yet in the committed weights)",
    )
    args = ap.parse_args(argv)
    items = training_items(load_doc("26.03", args.cr_dir))
    status = write_or_check(args.labelled_out, labelled_file(items), args.check, "training questions file")
    data = train(args.cr_dir, args.folds, args.trees, args.embed)
    text = json.dumps(data, indent=1) + "\n"
    return write_or_check(args.out, text, args.check, "weights file") or status


if __name__ == "__main__":
    raise SystemExit(main())
