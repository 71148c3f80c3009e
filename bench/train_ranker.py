"""Train the learned second stage of search (`rules_index.ranker`) and write its weights.

    .venv/bin/python bench/train_ranker.py [--cr-dir ../shared/cr] [--folds 5] [--check]

Training queries (never the held-out sets): the main set's question and paraphrase queries
(``bench/relevance_set.json``), ``bench/relevance_tuning.json`` and
``bench/relevance_train.json``. The index is built as ``bench/relevance.py`` builds it (expanded
with the rulings' and judges' questions citing rules from ../shared, as the product's is with its
card and judges' builds). For each query the ranker applies to, the searcher gives its
top `ranker.DEPTH` candidates in the hand-written order and their features
(`Searcher.rank_inputs`); a candidate is relevant if it is one of the query's answers.

Model: linear, trained listwise (softmax cross-entropy of the relevant candidates, the loss of
putting an answer first) with L2 regularisation, by full-batch Adam on standardised features,
in pure Python, deterministically (fixed folds, fixed iterations, no randomness). The
regularisation is chosen by k-fold cross-validation over the training queries (folds by query
position); the script prints, per setting, the cross-validated MRR@10 and recall@5 of the
reordered lists against the hand-written order on the same held-back queries, then fits the
chosen setting on every training query and writes ``rules_index/ranker_weights.json``. The
weights are only used by the searcher if the cross-validated MRR beats the hand-written order
(``"use": false`` otherwise). ``--check`` recomputes them and fails if the committed file differs.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from math import exp, sqrt
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from relevance import DEFAULT_CR_DIR, load_doc, load_set, source_questions  # noqa: E402

from rules_index import ranker  # noqa: E402
from rules_index.expansion import question_log  # noqa: E402
from rules_index.search import Searcher, build_index, index_words  # noqa: E402

BENCH = ROOT / "bench"
TRAINING = (
    (BENCH / "relevance_set.json", ("question", "paraphrase")),
    (BENCH / "relevance_tuning.json", None),
    (BENCH / "relevance_train.json", None),
)
LAMBDAS = (0.003, 0.01, 0.03, 0.1)
ITERATIONS = 200
LEARNING_RATE = 0.05

Query = tuple[str, list[list[float]], list[int]]  # (query, vectors, labels), hand order


def training_queries(searcher: Searcher, doc) -> tuple[list[Query], int]:
    """The queries the ranker applies to, with their candidates' features and labels; and the
    number of training queries read."""
    out: list[Query] = []
    seen: set[str] = set()
    total = 0
    for path, types in TRAINING:
        for item in load_set(path):
            if types is not None and item.get("type") not in types:
                continue
            if item["q"] in seen:
                continue
            seen.add(item["q"])
            total += 1
            answers = {a for a in item["answers"] if a in doc}
            inputs = searcher.rank_inputs(item["q"])
            if inputs is None:
                continue
            ids, vectors = inputs
            out.append((item["q"], vectors, [1 if i in answers else 0 for i in ids]))
    return out, total


def _scores(w: list[float], vectors: list[list[float]]) -> list[float]:
    return [sum(a * b for a, b in zip(w, v, strict=True)) for v in vectors]


def fit(queries: list[Query], lam: float) -> list[float]:
    """Raw-feature weights minimising the mean listwise loss + lam * |w|^2 (standardised)."""
    dim = len(ranker.FEATURES)
    rows = [v for _, vectors, _ in queries for v in vectors]
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


def train(cr_dir: Path, folds: int) -> dict:
    doc = load_doc("26.03", cr_dir)
    with tempfile.TemporaryDirectory() as tmp:
        # the index as bench/relevance.py (and the product with its card and judges' builds) has it
        build_index(doc, Path(tmp), question_log(doc, source_questions(), index_words))
        searcher = Searcher(Path(tmp), doc)
        queries, total = training_queries(searcher, doc)
        searcher.close()
    base_mrr, base_r5 = metrics(queries, None)
    print(f"{len(queries)} of {total} training queries are question-like (the ranker applies)")
    print(f"hand-written order: MRR@10 {base_mrr:.3f}  recall@5 {base_r5:.3f}")
    results = {}
    for lam in LAMBDAS:
        results[lam] = cross_validate(queries, lam, folds)
        print(
            f"lambda {lam:<6}: {folds}-fold cross-validated MRR@10 {results[lam][0]:.3f}  recall@5 {results[lam][1]:.3f}"
        )
    best = max(LAMBDAS, key=lambda lam: (results[lam][0], -lam))
    weights = fit(queries, best)
    train_mrr, _ = metrics(queries, weights)
    print(f"chosen lambda {best}; training MRR@10 (not a measure of quality) {train_mrr:.3f}")
    return {
        "about": "Weights of rules_index.ranker, written by bench/train_ranker.py (do not edit by hand).",
        "features": list(ranker.FEATURES),
        "weights": weights,
        "use": results[best][0] > base_mrr,
        "lambda": best,
        "folds": folds,
        "queries": len(queries),
        "hand_mrr10": round(base_mrr, 4),
        "cv_mrr10": round(results[best][0], 4),
        "cv_recall5": round(results[best][1], 4),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cr-dir", type=Path, default=DEFAULT_CR_DIR)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--out", type=Path, default=ranker.WEIGHTS_PATH)
    ap.add_argument("--check", action="store_true", help="fail if the committed weights differ")
    args = ap.parse_args(argv)
    data = train(args.cr_dir, args.folds)
    text = json.dumps(data, indent=1) + "\n"
    if args.check:
        same = args.out.exists() and args.out.read_text(encoding="utf-8") == text
        print(
            "weights file reproduced exactly" if same else f"error: {args.out} differs from a fresh training"
        )
        return 0 if same else 1
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
