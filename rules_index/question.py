"""What a judge's plain-English question asks for, read before it is searched.

A question typed at a table wraps a few content words in framing ("how many ... does the
corp get", "does a hosted card count as installed", "what does it mean to ..."). `read` takes
the framing out, so that only the words about the game are searched and weighed, and names
what kind of answer the question wants:

* ``count``: "how many", "how much", "is there a limit": the rule that states a number or a
  limit is the answer (`states_a_number` marks those rules);
* ``None`` otherwise.

The patterns are plain regular expressions over the lowercased query (`FRAMING`), exported
unchanged to the offline pack so the browser reads a question as the server does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["Question", "read", "FRAMING", "COUNT_CUES", "states_a_number"]


@dataclass(frozen=True)
class Question:
    text: str  # the query with its framing taken out (what is searched)
    intent: str | None  # "count", or None


# Framing: (pattern, replacement). Applied in order to the lowercased query; whole words only.
# Each one removes words that say how the question is asked, never what it is about.
FRAMING: tuple[tuple[str, str], ...] = (
    (r"\bhow (?:many|much)\b", " "),
    (r"\b(?:is|are) there (?:a |any )?(limit|maximum|max)\b", r" \1 "),
    (r"\bwhat does (.+?) mean\b", r" \1 "),
    (r"\bwhat is meant by\b", " "),
    (r"\b(?:is|are|be|being) considered\b", " "),
    (r"\b(?:they|them|their)\b", " "),
)
# How a question asking for a number or a limit begins ("can the runner see how many" does not).
COUNT_CUES = (
    r"^(?:how (?:many|much)|(?:is|are) there (?:a |any )?(?:limit|maximum|max)"
    r"|what(?: is|'s) the (?:maximum|minimum|max|min|limit))\b"
)


@lru_cache(maxsize=1)
def _compiled() -> tuple[tuple[tuple[re.Pattern, str], ...], re.Pattern]:
    return tuple((re.compile(p, re.I), r) for p, r in FRAMING), re.compile(COUNT_CUES, re.I)


@lru_cache(maxsize=4096)
def read(query: str) -> Question:
    """The question's focus and the kind of answer it wants. Anything that is not framing is
    kept as it was typed (case too: card names and "R&D" are matched on it)."""
    framing, count = _compiled()
    intent = "count" if count.search(query) else None
    text = query
    for pattern, repl in framing:
        text = pattern.sub(repl, text)
    text = " ".join(text.split())
    return Question(text=text or query, intent=intent)


# A rule states a number or a limit: a digit that is not part of a rule or step reference, a
# number word, or the words of a limit.
_REFERENCE = re.compile(
    r"\b(?:rules?|sections?|steps?)\s+\d+(?:\.\d+)*[a-z]?(?:\s*(?:,|and|or|-)\s*\d+(?:\.\d+)*[a-z]?)*", re.I
)
_NUMBER = re.compile(
    r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twice|once|single|no limit|"
    r"any number|limit|maximum|minimum|at most|at least|more than|less than|fewer than|equal to)\b",
    re.I,
)


def states_a_number(text: str) -> bool:
    """True if a rule's text states a number or a limit (not counting rule references)."""
    return bool(_NUMBER.search(_REFERENCE.sub(" ", text)))
