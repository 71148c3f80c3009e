"""The question bank: for each rule of the CR, the questions a judge or player would ask that it
answers, in their words, as document expansion for search (doc2query, written by hand).

The CR says what a rule says in the CR's words ("the Runner is flatlined"); a judge at a table
asks in theirs ("runner has no cards in hand and takes net damage"). The bank bridges the two:
``rules_index/asked/*.json`` maps a rule's stable id to a few questions that rule answers,
written rule by rule from the text of CR 26.03 (never from the evaluation sets under ``bench/``,
and never by reading search output; a question that nearly repeats any benchmark query, or that
is asked of two rules, is removed: ``tests/test_bank.py``). Stable ids survive renumbering, so the
questions of a rule apply to every version that has the rule.

`rules_index.search.build_index` indexes a rule's questions in its ``asked`` field, and the
learned stage (`rules_index.ranker`) reads how well the query matches the rule's best single
question (``q_best``), as a nearest-question feature. The bank is package data: part of the
code fingerprint of a build (`rules_index.store.code_fingerprint`), so editing it rebuilds the
indexes. After an edit, remake the word vectors (``bench/word_vectors.py``) and the translation
table (``bench/translation.py``), then retrain the ranker (``bench/train_ranker.py``).

Beside the bank, the index holds the ranker's training questions under the rules answering them
(`labelled`, ``labelled.json``): questions written to train and test the ranking, in the voice of
a judge at a table rather than the bank's rule-by-rule one, with answers checked against the CR.
They expand the index only (never the word vectors or the translation table, which are fitted on
the bank alone), and ``bench/train_ranker.py`` reads each training query's features from an index
without that query's fold, so that its cross-validation measures questions the index has not seen.

More is not always better: a fourth round (2026-11-27) that filled every rule under the cap up
to `MAX_QUESTIONS` (1,332 questions on 712 rules, written from the CR text, each naming what sets
its rule apart from its siblings) lowered the ranker's cross-validated MRR@10 on the training
questions from 0.883 to 0.874 with the vectors and table refitted (0.879 without the sections'
and chapters' overview questions; 0.875 with the bank alone changed), so it was not kept.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path

from memo import memo

__all__ = ["BANK_DIR", "LABELLED_PATH", "load", "labelled", "for_doc"]

BANK_DIR = Path(__file__).with_name("asked")
LABELLED_PATH = Path(__file__).with_name("labelled.json")
MAX_QUESTIONS = 9  # per rule
MAX_CHARS = 200  # per question


def load(directory: Path = BANK_DIR) -> dict[str, tuple[str, ...]]:
    """Stable id -> its questions, from every ``*.json`` in ``directory`` (file order, then
    name order). A file that is not a JSON object of lists of strings is skipped whole, an
    entry that is not a string is skipped: the bank is expansion, never a reason to fail."""
    return _load(str(directory))


@memo("bank.questions")
def _load(directory: str) -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {}
    for path in sorted(Path(directory).glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(data, dict):
            continue
        for rule_id, questions in data.items():
            if not isinstance(rule_id, str) or not isinstance(questions, list):
                continue
            _add(out.setdefault(rule_id, []), questions, MAX_QUESTIONS)
    return {k: tuple(v) for k, v in out.items() if v}


def _add(kept: list[str], questions: Iterable[object], limit: int | None = None) -> None:
    """Append to ``kept`` each question (whitespace collapsed, cut at `MAX_CHARS`) not already
    there, while it has fewer than ``limit``; entries that are not strings or are blank are skipped."""
    for q in questions:
        text = " ".join(q.split())[:MAX_CHARS] if isinstance(q, str) else ""
        if text and text not in kept and (limit is None or len(kept) < limit):
            kept.append(text)


def labelled(path: Path = LABELLED_PATH) -> dict[str, tuple[str, ...]]:
    """Stable id -> the ranker's training questions this rule answers (``labelled.json``,
    written by ``bench/train_ranker.py`` from the training sets under ``bench/``: questions
    judges and players ask whose answers were checked against the CR text; none that nearly
    repeats a held-out query). The product's index holds them beside the bank's
    (`rules_index.store`); the bank files, the word vectors and the translation table never do.
    A missing or damaged file gives none."""
    return _labelled(str(path))


@memo("bank.labelled")
def _labelled(path: str) -> dict[str, tuple[str, ...]]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8")).get("questions")
    except (OSError, ValueError, AttributeError):
        return {}
    if not isinstance(data, dict):
        return {}
    out: dict[str, tuple[str, ...]] = {}
    for rule_id, questions in data.items():
        if isinstance(rule_id, str) and isinstance(questions, list):
            kept: list[str] = []
            _add(kept, questions)
            if kept:
                out[rule_id] = tuple(kept)
    return out


def for_doc(
    doc,
    asked: Mapping[str, str] | None = None,
    directory: Path | None = BANK_DIR,
    labelled: Mapping[str, tuple[str, ...]] | None = None,
) -> dict[str, tuple[str, ...]]:
    """The questions of the rules this Document has (examples never have any): the bank's (none
    with ``directory`` None), then those people asked, ``asked`` (rule id -> questions, one a
    line: `rules_index.expansion.question_log`, the official rulings and judges' FAQ questions
    citing the rule), then ``labelled`` ones (rule id -> questions: `labelled`)."""
    bank = load(directory) if directory is not None else {}
    out: dict[str, tuple[str, ...]] = {}
    for n in doc.nodes:
        if n.kind == "example":
            continue
        questions = list(bank.get(n.id, ()))
        _add(questions, [*(asked or {}).get(n.id, "").split("\n"), *(labelled or {}).get(n.id, ())])
        if questions:
            out[n.id] = tuple(questions)
    return out
