"""What a judge's plain-English question asks for, read before it is searched.

A question typed at a table wraps a few content words in framing ("how many ... does the
corp get", "what does it mean to ..."). `read` takes the framing out, so that only the words
about the game are searched and weighed, and names what kind of answer the question wants
(its intent, from how it begins):

* ``count``: "how many", "how much", "is there a limit", "what is the maximum": the rule that
  states a number or a limit is the answer (`states_a_number`);
* ``permission``: "can ...", "may ...", "is it legal to", "do I have to": the rule that says
  what a player can, cannot, may or must do is the answer (`states_a_permission`);
* ``None`` otherwise ("what happens when ..." was tried as an intent preferring rules that
  begin with "If"/"When": it lost on bench/relevance_tuning.json).

It also says whether the query is phrased as a question at all (``asks``, `ASKS`): the learned
stage of search orders such a query even when it is short.

The searcher multiplies the score of a rule answering the intent (`rules_index.search`,
``INTENT_BONUS``). The patterns are plain regular expressions, exported unchanged to the
offline pack so the browser reads a question as the server does (`rules_index.offline`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from memo import memo

__all__ = [
    "Question",
    "read",
    "focus",
    "changes_asked",
    "term_asked",
    "ASKS",
    "FRAMING",
    "INTENTS",
    "RULE_MARKS",
    "marks",
    "LONG_QUERY",
]

LONG_QUERY = 2000  # characters a search accepts: a whole forum post
FOCUS_CHARS = 200  # characters of it that are searched (`rules_index.search.MAX_QUERY`)
MAX_NAMES = 4  # card names a post mentions that are searched beside its question


@dataclass(frozen=True)
class Question:
    text: str  # the query with its framing taken out (what is searched)
    intent: str | None  # a key of INTENTS, or None
    asks: bool = False  # phrased as a question (`ASKS`)


# Framing: (pattern, replacement), applied in order, case-insensitively, whole words only.
# Each removes words that say how the question is asked, never what it is about. (Removing
# "count as", "piece of" and "its" was tried: each lost on bench/relevance_tuning.json.)
FRAMING: tuple[tuple[str, str], ...] = (
    (r"\bhow (?:many|much)\b", " "),
    (r"\b(?:is|are) there (?:a |any )?(limit|maximum|max)\b", r" \1 "),
    (r"\bwhat does (.+?) mean\b", r" \1 "),
    (r"\bwhat is meant by\b", " "),
    (r"\b(?:is|are|be|being) considered\b", " "),
    (r"\b(?:they|them|their)\b", " "),
)
# Intent: (name, how such a question begins), the first that matches wins. "can the runner
# see how many credits the corp has" asks a permission, not a number.
INTENTS: tuple[tuple[str, str], ...] = (
    (
        "count",
        r"^(?:how (?:many|much)|(?:is|are) there (?:a |any )?(?:limit|maximum|max)"
        r"|what(?: is|'s) the (?:maximum|minimum|max|min|limit))\b",
    ),
    (
        "permission",
        r"^(?:can|could|may|must|is it (?:legal|possible|allowed)|am i allowed"
        r"|do(?:es)? (?:i|you|the \w+|a player|they) (?:have|need) to)\b",
    ),
)
# A query phrased as a question: it begins with a question word or ends with "?". The learned
# stage of search (`rules_index.ranker.applies`) orders such a query even when it has few content
# words ("what is a nested cost", "who owns a card"), where a bare "oof influence" or "bypas ice"
# keeps the hand-written order.
ASKS = (
    r"^(?:what(?:'s|s)?|how|who|whose|when|where|which|why|can|could|may|must|do|does|did|is|are|am"
    r"|should|will|would|if)\b|\?\s*$"
)
# What a rule's text says that answers an intent: (intent, pattern). A number or a limit (a
# digit outside a rule reference, a number word, the words of a limit); a permission or a duty.
RULE_MARKS: tuple[tuple[str, str], ...] = (
    (
        "count",
        r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twice|once|single|no limit"
        r"|any number|limit|maximum|minimum|at most|at least|more than|less than|fewer than"
        r"|equal to)\b",
    ),
    ("permission", r"\b(?:can|cannot|can't|may|must|only|allowed|not required|is required|unable)\b"),
)
# Rule references ("See rule 1.13.13", "sections 6.3 and 6.4") are not numbers a rule states.
REFERENCE = (
    r"\b(?:rules?|sections?|steps?)\s+\d+(?:\.\d+)*[a-z]?"
    r"(?:\s*(?:,|and|or|-)\s*\d+(?:\.\d+)*[a-z]?)*"
)


@memo("question.framing")
def _compiled():
    framing = tuple((re.compile(p, re.I), r) for p, r in FRAMING)
    intents = tuple((name, re.compile(p, re.I)) for name, p in INTENTS)
    rule_marks = tuple((name, re.compile(p, re.I)) for name, p in RULE_MARKS)
    return framing, intents, rule_marks, re.compile(REFERENCE, re.I), re.compile(ASKS, re.I)


@memo("question.reads")
def read(query: str) -> Question:
    """The question's focus and the kind of answer it wants. What is not framing is kept as it
    was typed (case too: card names and "R&D" are matched on it); a query that is nothing but
    framing is kept whole."""
    framing, intents, _, _, asks = _compiled()
    intent = next((name for name, cue in intents if cue.search(query)), None)
    text = query
    for pattern, repl in framing:
        text = pattern.sub(repl, text)
    text = " ".join(text.split())
    return Question(text=text or query, intent=intent, asks=bool(asks.search(query.strip())))


def marks(text: str) -> frozenset[str]:
    """The intents a rule's text answers (``{"count", "permission"}`` or fewer)."""
    _, _, rule_marks, reference, _ = _compiled()
    plain = reference.sub(" ", text)
    return frozenset(name for name, pattern in rule_marks if pattern.search(plain))


# A sentence ends at ".", "!" or "?" (and any closing quote or bracket) followed by a blank.
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+")
# Control, zero-width and direction characters: blanks in a query (`search.clean_query` too).
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\ufeff]")


def focus(query: str, mentions: Callable[[str], list[str]] | None = None, limit: int = FOCUS_CHARS) -> str:
    """The part of a long query that is searched: a query of at most ``limit`` characters as it
    is; a longer one (a forum post describing a board, then asking) cut to its question: its
    last sentences ending in "?" (the last sentences when none does), as many as fit, in their
    order, then the card names the post mentions that they do not (``mentions``, at most
    `MAX_NAMES`) as long as they fit. Linear in the query's length: a post of `LONG_QUERY`
    characters costs one split and one pass of ``mentions``. The saved copy's search reads a
    long query the same way, without the card names (``focus`` in offline-search.js)."""
    text = " ".join(CONTROL.sub(" ", query).split())
    if len(text) <= limit:
        return text
    sentences = [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]
    asked = [s for s in sentences if s.rstrip("\"')] ").endswith("?")] or sentences
    picked: list[str] = []
    used = 0
    for sentence in reversed(asked):
        if used + len(sentence) + 1 > limit:
            break
        picked.insert(0, sentence)
        used += len(sentence) + 1
    if not picked:  # one sentence longer than the limit: its end, where the question is
        tail = asked[-1][-limit:]
        picked = [tail[tail.find(" ") + 1 :] if " " in tail else tail]
        used = len(picked[0])
    found = " ".join(picked)
    low = found.casefold()
    for name in (mentions(text) if mentions else [])[:MAX_NAMES]:
        if name.casefold() in low:
            continue
        if used + len(name) + 1 > limit:
            break
        found += " " + name
        used += len(name) + 1
    return found[:limit]


# A question about what changed between CR versions ("what changed in run timing between 25.08
# and 26.03", "changes 25.08 26.03", "diff 24.03..25.04", "what's new in 26.03").
CHANGES = r"\b(?:chang\w*|differen\w*|diffs?|updat\w*|new)\b"
VERSION_NAME = r"(?<![\d.])(\d{2}\.\d{2})(?![\d.])"
# A question asking what a term means: "define X", "definition of X", "meaning of X", "what is
# (a|an|the) X", "what are X", "what does X mean".
DEFINE = (
    r"^(?:define|definition of|meaning of|what(?:'s|s| is| are)(?: an?| the)?)\s+(.+?)[\s?.!]*$"
    r"|^what does (?:an? |the )?(.+?) mean[\s?.!]*$"
)


def changes_asked(query: str, versions: list[str]) -> tuple[str, str] | None:
    """The two versions (older, newer) a question about changes names, from ``versions`` (every
    built version, oldest first): both when it names two, the one before and the one it names
    when it names one ("what's new in 26.03"). None when it does not ask about changes or names
    no built version."""
    text = query[:FOCUS_CHARS]
    if not re.search(CHANGES, text, re.I):
        return None
    named = [v for v in dict.fromkeys(re.findall(VERSION_NAME, text)) if v in versions]
    if len(named) >= 2:
        old, new = sorted(named[:2], key=versions.index)
        return old, new
    if len(named) == 1 and versions.index(named[0]) > 0:
        return versions[versions.index(named[0]) - 1], named[0]
    return None


def term_asked(query: str) -> str | None:
    """The term a "define X" / "what is X" question asks about (lowercased, one line), or None."""
    m = re.match(DEFINE, " ".join(query[:FOCUS_CHARS].split()), re.I)
    if not m:
        return None
    term = (m.group(1) or m.group(2) or "").strip().strip("\"'“”‘’").lower()
    return term or None
