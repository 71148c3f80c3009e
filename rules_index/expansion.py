"""Questions people asked, as document expansion of the CR rules they cite.

The product's own "query log": NetrunnerDB official rulings and the judges' FAQ are questions
in a player's words, and some name the CR rule that answers them ("... see rule 1.15.1a").
The text of such a question is indexed with the rule it cites, beside the question bank's
questions for it in the rule's ``asked`` field (`rules_index.bank.for_doc`), so a judge typing a
question phrased like it finds the rule. (Until the question bank, it went in the weak
``context`` field; with the bank's 13,000 questions there, a question citing 9.1.6 no longer
lifted it into the first five.)

Build order: the card build (`nrrules build --cards`) and the judges' build (`--judge`) are
each built on their own; a CR version's index reads the questions of whichever of them is
built when the version is indexed (`built_questions`), and its meta.json keeps their key
(`questions_key`). `rules_index.store.build` treats a version whose key differs from the
current one as out of date, and `rules_index.store.refresh_questions` (run by `nrrules build`
after it builds cards or judges' documents) re-indexes such versions from their stored
Document, atomically as every build is written. The rules index builds the same without
either source (no questions, an empty key).

Measured on bench/relevance_set.json and bench/relevance_tuning.json with `bench/expansion.py`,
beside the other kinds of expansion tried there (hierarchy, a learned thesaurus), which lost.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

from scraper import Document

__all__ = [
    "Asked",
    "built_questions",
    "judge_questions",
    "question_log",
    "questions_key",
    "ruling_questions",
]

# (the question, the text that may cite rules: the question and its answer)
Asked = tuple[str, str]

# A citation of a CR rule by number. Only numbers with three parts ("6.9.5a", "1.15.1a"):
# rulings written before the CR cite the old run timing steps ("step 4.5" of a run), which
# would resolve to unrelated sections of today's CR.
RULE_NUMBER = re.compile(r"(?<![\w.])(\d{1,2}\.\d{1,2}\.\d{1,2}[a-z]?)(?![\w]|\.\d)")
MAX_QUESTIONS = 8  # questions kept per rule
SHARED_WORD_SHARE = 0.05  # a word in more of the rules than this says nothing of the rule cited
# What reading a missing or damaged card or judges' build raises (`CardsNotBuilt` is a
# LookupError).
_UNREADABLE = (LookupError, OSError, ValueError, KeyError, TypeError)


def ruling_questions(rulings: Iterable) -> list[Asked]:
    """(question, question and answer) of official rulings (`scraper.nrdb.Ruling`), as plain
    words without their source heading; a statement ruling is its own question."""
    from .cards import ruling_text

    out: list[Asked] = []
    for ruling in rulings:
        words = ruling_text(ruling)
        question = words.question or words.text
        if question:
            out.append((question, f"{question}\n{words.answer or ''}"))
    return out


def judge_questions(items: Iterable) -> list[Asked]:
    """(question, whole item) of the judges' FAQ items (`scraper.judge.JudgeItem`)."""
    return [(item.question, item.text) for item in items if item.kind == "faq" and item.question]


def built_questions(build_dir: Path) -> list[Asked]:
    """The questions of the card build and the judges' build in ``build_dir`` (none when
    neither is built, or one cannot be read: the rules index never depends on them)."""
    from .cards import CardStore
    from .judge import JudgeStore

    out: list[Asked] = []
    try:
        store = CardStore.open(build_dir)
        out += ruling_questions(r for card in store.cards() for r in store.rulings(card.id))
    except _UNREADABLE:  # no card build, or a damaged one: the rules index is built without it
        pass
    try:
        judge = JudgeStore.open(build_dir)
        if judge is not None:
            out += judge_questions(judge.items())
    except _UNREADABLE:  # likewise for the judges' build
        pass
    return out


def _citing(questions: Iterable[Asked]) -> list[Asked]:
    return [q for q in questions if RULE_NUMBER.search(q[1])]


def questions_key(questions: Iterable[Asked]) -> str:
    """What the rules index depends on, as a key: the questions citing a rule number, in a
    fixed order ("" when there are none)."""
    citing = sorted(set(_citing(questions)))
    if not citing:
        return ""
    h = hashlib.sha256()
    for question, text in citing:
        h.update(question.encode())
        h.update(b"\x00")
        h.update(text.encode())
        h.update(b"\x01")
    return h.hexdigest()[:16]


def question_log(
    doc: Document, questions: Iterable[Asked], analyze: Callable[[str], list[str]]
) -> dict[str, str]:
    """Rule id -> the questions citing it by number in this version. A number naming no rule
    of ``doc`` or an example adds nothing, and so does a question sharing no distinctive word
    (``analyze``d, in at most ``SHARED_WORD_SHARE`` of the rules) with the rule it names:
    rulings cite the numbers of the CR of their day, and a renumbered rule is another rule."""
    citing = sorted(set(_citing(questions)))
    if not citing:
        return {}
    numbers = doc.number_index()
    rules = [n for n in doc.nodes if n.kind != "example"]
    words = {n.id: set(analyze(f"{n.title or ''} {n.text}")) for n in rules}
    df: Counter = Counter(w for ws in words.values() for w in ws)
    common = {w for w, c in df.items() if c > SHARED_WORD_SHARE * len(rules)}
    out: dict[str, list[str]] = {}
    for question, text in citing:
        asked_words = set(analyze(text)) - common
        for number in dict.fromkeys(RULE_NUMBER.findall(text)):
            node = numbers.get(number)
            if node is None or node.kind == "example" or not asked_words & words[node.id]:
                continue
            asked = out.setdefault(node.id, [])
            if question not in asked and len(asked) < MAX_QUESTIONS:
                asked.append(question)
    return {rule_id: "\n".join(asked) for rule_id, asked in out.items()}
