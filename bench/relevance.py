"""Relevance of rules_index search on the evaluation set, against a plain BM25 baseline.

    .venv/bin/python bench/relevance.py [--version 26.03] [--cr-dir ../shared/cr] [-v] [--set FILE ...]
                                        [--split train|dev] [--sources] [--no-questions] [--no-bank] [--no-vectors | --offline] [--json]

Prints, for each evaluation set (by default all nine), recall@5 (share of queries with a correct rule in the top 5) and
MRR@10 (mean reciprocal rank of the first correct rule in the top 10), overall and per query
type, for:

* ``nrrules``: `rules_index.search.Searcher` (lookup first, jargon, typos, card names, boosts,
  the question bank's ``asked`` field, the learned stage with its word vectors);
* ``bm25``: plain Whoosh BM25 over each rule's text, standard analyzer, OR of the query words.

Both run on a real on-disk index built in a temporary directory from the real CR file.

With ``--sources``, the search box's default instead: one list over every source
(`rules_index.unified.search_sources`: rules, cards and rulings from ../shared/nrdb/v2, judge
items from ../shared/judge, built into a temporary library as ``nrrules build --cards --judge``
builds them), scored by where the first right rule stands in that merged list (a card, ruling
or judge hit is never counted as an answer: the sets name rules).

The sets and what they may be used for:

* ``relevance_set.json``: the main set (numbers, jargon, typos, cards, questions), tuned on;
* ``relevance_tuning.json``: plain-English questions written for the issue 15 ranking work,
  tuned on (the jargon phrasings, proximity bonus);
* ``relevance_train.json``: plain-English questions written to train the learned re-ranker
  (`rules_index.ranker`, ``bench/train_ranker.py``), with the main set's questions and the tuning
  set: its figures are training figures (the trainer prints cross-validated ones);
* ``relevance_train2.json``: more such training questions (issue 15, traindata helper), mostly on
  rules the earlier sets do not ask about; its figures are training figures too;
* ``relevance_train3.json``: 659 more (issue 15, bank3 helper): rules no earlier set asks about,
  and the topics judges are asked most in new phrasings and situations; training figures too;
* ``relevance_train4.json``: 435 more (issue 15, 2026-11-27, four helpers, one per group of
  chapters), the topics judges ask most and rules with few questions, in table words; training
  figures too;
* ``relevance_train5.json``: 405 more (the same day, four helpers, one per group of the topics
  judges ask most), each rule from several angles, many as board situations or shorthand;
  training figures too;
* the training sets' questions are also in the index (`rules_index.bank.labelled`, under the
  rules answering them), as they are in the product's: the main set's questions and paraphrases,
  the tuning set and the three training sets score their own words there, so their figures are
  in-sample; the main set's card, jargon, number and typo queries are not among them;
* ``relevance_real.json``: rules questions people asked in public (forums, Q&A sites, engines'
  issue trackers), wording as written, labelled with the CR 26.03 rules (and cards) answering
  them, split train/dev by source thread (``--split``; never tune on dev); not among the default
  sets. With ``--sources`` it also prints ``served`` (questions over `MAX_QUERY` characters
  refused, as the web does: misses) and ``card`` (the named card or its ruling in the list);
* ``relevance_holdout.json``: queries written after earlier tuning, held out;
* ``relevance_questions.json``: 54 plain-English questions written before any issue 15 ranking
  change, held out: never tune on it (its scores are reported, its misses are not studied).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# the rules' sentence embeddings are read from this cache (the first run makes it)
os.environ.setdefault("NRRULES_EMBED_CACHE", str(ROOT / ".embed-cache"))

from whoosh import index as windex  # noqa: E402
from whoosh.analysis import StandardAnalyzer  # noqa: E402
from whoosh.fields import ID, TEXT, Schema  # noqa: E402
from whoosh.qparser import OrGroup, QueryParser  # noqa: E402

from rules_index import bank, embeddings  # noqa: E402
from rules_index.bank import BANK_DIR  # noqa: E402
from rules_index.expansion import Asked, judge_questions, question_log, ruling_questions  # noqa: E402
from rules_index.question import LONG_QUERY  # noqa: E402
from rules_index.search import MAX_QUERY, Searcher, build_index, clean_query, index_words  # noqa: E402
from scraper import Document, parse_html  # noqa: E402

SET_PATH = Path(__file__).with_name("relevance_set.json")
HOLDOUT_PATH = Path(__file__).with_name("relevance_holdout.json")
QUESTIONS_PATH = Path(__file__).with_name("relevance_questions.json")
TUNING_PATH = Path(__file__).with_name("relevance_tuning.json")
TRAIN_PATH = Path(__file__).with_name("relevance_train.json")
TRAIN2_PATH = Path(__file__).with_name("relevance_train2.json")
TRAIN3_PATH = Path(__file__).with_name("relevance_train3.json")
TRAIN4_PATH = Path(__file__).with_name("relevance_train4.json")
TRAIN5_PATH = Path(__file__).with_name("relevance_train5.json")
REAL_PATH = Path(__file__).with_name("relevance_real.json")
TRAINING_SETS = (TRAIN_PATH, TRAIN2_PATH, TRAIN3_PATH, TRAIN4_PATH, TRAIN5_PATH)
ALL_SETS = (SET_PATH, TUNING_PATH, *TRAINING_SETS, HOLDOUT_PATH, QUESTIONS_PATH)
HELD_OUT = {HOLDOUT_PATH.name, QUESTIONS_PATH.name}
DEFAULT_CR_DIR = Path(os.environ.get("NRRULES_CR_DIR", ROOT.parent / "shared" / "cr"))
DEFAULT_NRDB = ROOT.parent / "shared" / "nrdb" / "v2"
DEFAULT_JUDGE = ROOT.parent / "shared" / "judge"


def source_questions(nrdb: Path | None = DEFAULT_NRDB, judge: Path | None = DEFAULT_JUDGE) -> list[Asked]:
    """The questions of the official rulings and judges' FAQ items at these sources, which the
    product's index is expanded with when the card and judges' builds are present
    (`rules_index.expansion`); none for a source that is absent."""
    out: list[Asked] = []
    if nrdb is not None and nrdb.is_dir():
        from scraper.nrdb import load

        out += ruling_questions(load(str(nrdb)).rulings)
    if judge is not None and judge.exists():
        from scraper.judge import parse_judge

        files = sorted(judge.glob("*.html")) if judge.is_dir() else [judge]
        for path in files:
            out += judge_questions(parse_judge(path.read_bytes(), path.name).items)
    return out


def load_set(path: Path = SET_PATH, split: str | None = None) -> list[dict]:
    """A set's queries; with ``split`` ("train" or "dev"), only those of that split (the real
    questions' set, ``relevance_real.json``, is split by source thread; a set without splits has
    none of either)."""
    queries = json.loads(path.read_text(encoding="utf-8"))["queries"]
    return queries if split is None else [q for q in queries if q.get("split") == split]


def rule_queries(doc: Document, path: Path, split: str | None = None) -> list[dict]:
    """The queries of a set this version can answer, each with only the answers it has (the sets
    are written against 26.03); a real question answered by a card alone (no rule) is left out."""
    return [
        {**q, "answers": [a for a in q["answers"] if a in doc]}
        for q in load_set(path, split)
        if any(a in doc for a in q["answers"])
    ]


def load_doc(version: str, cr_dir: Path = DEFAULT_CR_DIR) -> Document:
    path = cr_dir / f"cr-{version}.html"
    return parse_html(path.read_bytes(), str(path))


def write_or_check(path: Path, text: str, check: bool, what: str) -> int:
    """For the scripts that remake package data (``bench/train_ranker.py``,
    ``bench/translation.py``): write ``text`` to ``path``, or with ``check`` write nothing and
    say whether the committed file is exactly ``text`` (exit status 1 when not)."""
    if check:
        try:
            same = path.read_text(encoding="utf-8") == text
        except OSError:
            same = False
        print(f"{what} reproduced exactly" if same else f"error: {path} differs from a fresh run")
        return 0 if same else 1
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path}")
    return 0


class BM25Baseline:
    """Plain BM25 over each non-example node's text (no boosts, jargon, typos or lookup)."""

    def __init__(self, doc: Document, path: Path) -> None:
        schema = Schema(id=ID(stored=True), text=TEXT(analyzer=StandardAnalyzer()))
        ix = windex.create_in(str(path), schema)
        writer = ix.writer(procs=1, limitmb=256, multisegment=False)
        for node in doc.nodes:
            if node.kind != "example":
                writer.add_document(id=node.id, text=f"{node.title or ''} {node.text}")
        writer.commit()
        self.ix = ix
        self.parser = QueryParser("text", schema, group=OrGroup)

    def search(self, query: str, limit: int = 10) -> list[str]:
        text = clean_query(query)
        try:
            q = self.parser.parse(text)
        except Exception:
            return []
        with self.ix.searcher() as s:
            return [hit["id"] for hit in s.search(q, limit=limit)]


def evaluate(ranked: dict[str, list[str]], queries: list[dict]) -> dict:
    recall5 = 0
    rr = 0.0
    by_type: dict[str, list[float]] = defaultdict(list)
    hit5_by_type: dict[str, list[int]] = defaultdict(list)
    misses = []
    for item in queries:
        ids = ranked[item["q"]]
        answers = set(item["answers"])
        rank = next((i + 1 for i, rid in enumerate(ids[:10]) if rid in answers), None)
        hit5 = int(rank is not None and rank <= 5)
        recall5 += hit5
        rr_q = 1.0 / rank if rank else 0.0
        rr += rr_q
        by_type[item.get("type", "?")].append(rr_q)
        hit5_by_type[item.get("type", "?")].append(hit5)
        if rank != 1:
            misses.append((item["q"], rank, ids[:3]))
    n = len(queries)
    return {
        "n": n,
        "recall@5": recall5 / n if n else 0.0,
        "mrr@10": rr / n if n else 0.0,
        "mrr_by_type": {t: sum(v) / len(v) for t, v in sorted(by_type.items())},
        "recall5_by_type": {t: sum(v) / len(v) for t, v in sorted(hit5_by_type.items())},
        "n_by_type": {t: len(v) for t, v in sorted(by_type.items())},
        "not_first": misses,
    }


def _score_set(
    doc: Document,
    searcher: Searcher,
    baseline: BM25Baseline,
    set_path: Path,
    verbose: bool,
    split: str | None = None,
) -> dict:
    all_queries = load_set(set_path, split)
    # The sets are written against 26.03; on another version, score the queries it can answer.
    queries = rule_queries(doc, set_path, split)
    ours = {q["q"]: [h.id for h in searcher.search(q["q"], limit=10)] for q in queries}
    base = {q["q"]: baseline.search(q["q"], limit=10) for q in queries}
    results = {"nrrules": evaluate(ours, queries), "bm25": evaluate(base, queries)}
    role = (
        f"real questions, {split or 'both'} split{'s' if split is None else ''}"
        if split is not None or set_path.name == REAL_PATH.name
        else "held out, never tuned on"
        if set_path.name in HELD_OUT
        else "ranker training"
        if set_path.name in {p.name for p in TRAINING_SETS}
        else "tuning"
    )
    print(
        f"\n{set_path.name} ({role}), CR {doc.version}: {len(queries)} of {len(all_queries)} queries have an answer in this version"
    )
    print(f"{'':10} {'recall@5':>9} {'MRR@10':>8}   per query type: recall@5/MRR@10 (n)")
    for name, r in results.items():
        types = "  ".join(
            f"{t} {r['recall5_by_type'][t]:.2f}/{v:.2f} ({r['n_by_type'][t]})"
            for t, v in r["mrr_by_type"].items()
        )
        print(f"{name:10} {r['recall@5']:9.3f} {r['mrr@10']:8.3f}   {types}")
    if verbose:
        print("\nnrrules, queries whose first hit is not an answer (query, rank of first answer, top 3):")
        for q, rank, top in results["nrrules"]["not_first"]:
            print(f"  {q!r}: rank {rank}  {top}")
    return results


def build_all_sources(version: str, cr_dir: Path, build_dir: Path):
    """A library in ``build_dir`` with one CR version, the NetrunnerDB cards and rulings and the
    judges' document, as ``nrrules build --cards --judge`` leaves it (the rules index re-built
    with the rulings' and judges' questions citing rules). For the benchmarks of the search
    box's default list over every source."""
    from rules_index.cards import build_cards
    from rules_index.judge import build_judge
    from rules_index.store import Library, build, refresh_questions

    build(str(cr_dir / f"cr-{version}.html"), build_dir)
    build_cards(str(DEFAULT_NRDB), build_dir)
    names = {c.name for n in Library.open(build_dir).document(version).nodes for c in n.cards}
    build_judge(str(DEFAULT_JUDGE), build_dir, names)
    refresh_questions(build_dir)
    return Library.open(build_dir)


def card_evaluate(ranked: dict[str, list[str]], queries: list[dict]) -> dict:
    """For the queries naming cards (``cards``): where the first of those cards, or one of its
    rulings, stands in the merged list (``cards:<id>`` / ``rulings:<id>``)."""
    named = [q for q in queries if q.get("cards")]
    scored = [
        {"q": q["q"], "answers": [f"{s}:{c}" for c in q["cards"] for s in ("cards", "rulings")]}
        for q in named
    ]
    return evaluate(ranked, scored) if scored else {"n": 0, "recall@5": 0.0, "mrr@10": 0.0}


def _print_line(name: str, r: dict) -> None:
    types = "  ".join(
        f"{t} {r['recall5_by_type'][t]:.2f}/{v:.2f} ({r['n_by_type'][t]})"
        for t, v in r["mrr_by_type"].items()
    )
    print(f"{name:10} {r['recall@5']:9.3f} {r['mrr@10']:8.3f}   {types}")


def run_sources(
    version: str,
    cr_dir: Path,
    set_paths: tuple[Path, ...] | list[Path],
    split: str | None = None,
    sentence_embeddings: bool = True,
) -> dict[str, dict]:
    """Score every set on the merged list of every source (``--sources``), beside plain BM25
    over the rules. ``merged`` is the list the library gives; ``served`` the one the web gives:
    the same up to `question.LONG_QUERY` characters (a post is searched by its question and the
    cards it names), refused (a miss) beyond."""
    from rules_index.unified import available_sources, search_sources

    out: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        library = build_all_sources(version, cr_dir, Path(tmp) / "build")
        sources = available_sources(library)
        doc = library.document(version)
        library.searcher(version).use_embeddings(sentence_embeddings)
        base_dir = Path(tmp) / "bm25"
        base_dir.mkdir()
        baseline = BM25Baseline(doc, base_dir)
        for set_path in set_paths:
            queries = rule_queries(doc, Path(set_path), split)
            every = load_set(Path(set_path), split)  # the card-only questions too
            merged = {
                q["q"]: [
                    h.id if h.source == "rules" else f"{h.source}:{h.id}"
                    for h in search_sources(library, q["q"], version, sources).hits
                ]
                for q in every
            }
            # the web answers queries up to LONG_QUERY characters (a whole post: its question and
            # the cards it names are searched, `question.focus`) and refuses longer ones
            served = {q: ([] if len(q) > LONG_QUERY else ids) for q, ids in merged.items()}
            base = {q["q"]: baseline.search(q["q"], limit=10) for q in queries}
            r = evaluate(merged, queries)
            out[Path(set_path).name] = {
                "merged": r,
                "served": evaluate(served, queries),
                "bm25": evaluate(base, queries),
                "cards": card_evaluate(merged, every),
            }
            long = sum(1 for q in queries if len(q["q"]) > MAX_QUERY)
            print(
                f"\n{Path(set_path).name}{f' ({split} split)' if split else ''}, all sources "
                f"({', '.join(sources)}), CR {version}: {len(queries)} queries with a rule answer, "
                f"{long} over {MAX_QUERY} characters"
            )
            print(f"{'':10} {'recall@5':>9} {'MRR@10':>8}   per query type: recall@5/MRR@10 (n)")
            for name in ("merged", "served", "bm25"):
                _print_line(name, out[Path(set_path).name][name])
            c = out[Path(set_path).name]["cards"]
            if c["n"]:
                print(
                    f"{'card':10} {c['recall@5']:9.3f} {c['mrr@10']:8.3f}   the named card or its ruling, "
                    f"{c['n']} questions naming a card"
                )
    return out


def run(
    version: str,
    cr_dir: Path,
    verbose: bool = False,
    set_paths: tuple[Path, ...] | list[Path] = ALL_SETS,
    questions: bool = True,
    asked: bool = True,
    word_vectors: bool | str = True,
    split: str | None = None,
    sentence_embeddings: bool = True,
) -> dict[str, dict]:
    """Score every set on one index build; {set file name: {"nrrules": ..., "bm25": ...}}.
    With ``questions``, the index is expanded with the rulings' and judges' questions citing
    rules, as the product's is when its card and judges' builds are present; without ``asked``,
    it is built without the question bank (`rules_index.bank`), an ablation: the ranker's
    weights are the product's, trained with it; without ``word_vectors``, questions are ranked
    without the word vectors (`rules_index.vectors`) by the lite model; with ``word_vectors``
    ``"pack"``, as the offline copy ranks them (its small table and model); without
    ``sentence_embeddings``, without the rules' sentence embeddings (`rules_index.embeddings`)."""
    doc = load_doc(version, cr_dir)
    out: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        ours_dir = Path(tmp) / "search"
        ours_dir.mkdir()
        expansion = question_log(doc, source_questions(), index_words) if questions else None
        questions = bank.for_doc(
            doc, expansion, BANK_DIR if asked else None, bank.labelled() if asked else None
        )
        build_index(doc, ours_dir, asked=questions)
        if sentence_embeddings:  # as a build writes them (`rules_index.embeddings`)
            embeddings.write_rules(doc, ours_dir, embeddings.cache_dir(Path(tmp)), questions)
        searcher = Searcher(ours_dir, doc, word_vectors=word_vectors)
        base_dir = Path(tmp) / "bm25"
        base_dir.mkdir()
        baseline = BM25Baseline(doc, base_dir)
        for set_path in set_paths:
            out[Path(set_path).name] = _score_set(doc, searcher, baseline, Path(set_path), verbose, split)
        searcher.close()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--version", default="26.03")
    ap.add_argument("--cr-dir", type=Path, default=DEFAULT_CR_DIR)
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument(
        "--set",
        type=Path,
        action="append",
        help="evaluation set; repeatable (default: the main, tuning and two held-out sets)",
    )
    ap.add_argument(
        "--split",
        choices=("train", "dev"),
        help="only the queries of this split (relevance_real.json is split by source thread)",
    )
    ap.add_argument("--json", action="store_true", help="print the figures as JSON too")
    ap.add_argument(
        "--sources",
        action="store_true",
        help="score the merged list of every source (rules, cards, rulings, judge) instead",
    )
    ap.add_argument(
        "--no-questions",
        action="store_true",
        help="index without the rulings' and judges' questions citing rules (a build without cards)",
    )
    ap.add_argument(
        "--no-bank",
        action="store_true",
        help="index without the question bank (rules_index/asked): an ablation with the same ranker weights",
    )
    ranking = ap.add_mutually_exclusive_group()
    ranking.add_argument(
        "--no-vectors",
        action="store_true",
        help="rank without the word vectors (rules_index.vectors), by the lite model",
    )
    ranking.add_argument(
        "--offline",
        action="store_true",
        help="rank as the saved offline copy does: the pack's small word-vector table and model",
    )
    ap.add_argument(
        "--no-embeddings",
        action="store_true",
        help="rank without the rules' sentence embeddings (rules_index.embeddings), as a build without the model",
    )
    args = ap.parse_args(argv)
    if args.sources:
        results = run_sources(
            args.version, args.cr_dir, tuple(args.set or ALL_SETS), args.split, not args.no_embeddings
        )
    else:
        results = run(
            args.version,
            args.cr_dir,
            args.verbose,
            tuple(args.set or ALL_SETS),
            not args.no_questions,
            not args.no_bank,
            "pack" if args.offline else not args.no_vectors,
            args.split,
            not args.no_embeddings,
        )
    if args.json:
        print(
            json.dumps(
                {
                    set_name: {
                        k: {
                            m: v[m]
                            for m in ("n", "recall@5", "mrr@10", "recall5_by_type", "mrr_by_type")
                            if m in v
                        }
                        for k, v in r.items()
                    }
                    for set_name, r in results.items()
                }
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
