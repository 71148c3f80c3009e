"""Rule lookup by printed number, stable id or official deep link.

Accepts what people type and paste::

    6.9.4c   6.9.4.c   6.9.4 c   rule 6.9.4c   step 6.9.3b   CR 1.2.1   section 6.9   §6.9
    6.9 (a section)   6 (a chapter)   11.2.2b.ii   step_jack_out_choice
    https://rules.nullsignal.games/?r=rule_card_precedence   6.9.4+ (the rule and its sub-rules)

Matching is exact: ``6.1`` is never 6.10 or 6.1.1. A printed number is a per-version label, so
every lookup is against one `Document`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import parse_qs, unquote, urlsplit

from scraper import Document, Node

__all__ = ["ParsedRef", "LookupResult", "parse_query", "lookup", "number_key", "number_index"]

MAX_QUERY = 300

# Words people put in front of a number: "rule 6.9.4c", "CR 1.2.1", "section 6.9", "§ 6.9".
_PREFIX = re.compile(
    r"^(?:(?:rules|rule|sub-?rules?|steps?|timing\s+steps?|sections?|subsections?|sec|chapters?|chap|ch|"
    r"phase|cr|nsg|r|§+|#)\s*\.?\s*)+",
    re.IGNORECASE,
)
# 6 | 6.9 | 6.9.4 | 6.9.4c | 6.9.4.c | 6.9.4 c | 6.9.4(c) | 11.2.2b.ii | 11.2.2b ii, trailing "." and "+"
_NUMBER = re.compile(
    r"""^(?P<parts>\d{1,3}(?:\s*\.\s*\d{1,3}){0,2})
        (?:(?:\s*\.\s*|\s+|\s*\(\s*)?(?P<letter>[a-z])\)?)?
        (?:(?:\s*\.\s*|\s+|\s*\(\s*)?(?P<roman>[ivx]{1,4})\)?)?
        \s*\.?\s*(?P<plus>\+)?\s*$""",
    re.VERBOSE | re.IGNORECASE,
)
# A stable id: letters, digits and _ . + - &, starting with a letter, with at least one "_"
# (every CR id has one; checked apart, as one pattern for both backtracks quadratically).
_ID = re.compile(r"[A-Za-z][A-Za-z0-9_.+&-]*")
_ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8, "ix": 9, "x": 10}


@dataclass(frozen=True)
class ParsedRef:
    """What a lookup query refers to: a printed ``number`` or a stable ``id``."""

    kind: str  # "number" or "id"
    value: str  # normalised number ("6.9.4c", "11.2.2b.ii") or the id as typed
    with_children: bool = False  # "6.9.4+": the node and all its descendants
    raw: str = ""


@dataclass
class LookupResult:
    query: str
    ref: ParsedRef | None = None
    nodes: list[Node] = field(default_factory=list)  # the node first, then descendants if asked
    error: str | None = None
    suggestions: list[str] = field(default_factory=list)  # nearest existing numbers

    @property
    def node(self) -> Node | None:
        return self.nodes[0] if self.nodes else None

    def __bool__(self) -> bool:
        return bool(self.nodes)


def _clean(text: str) -> str:
    """The query cut to MAX_QUERY characters, each run of blanks or unprintable characters made
    one space (so no pattern below sees a long run of blanks: their optional-blank groups
    would otherwise backtrack cubically), quotes and brackets around it removed."""
    text = "".join(ch if ch.isprintable() else " " for ch in text[:MAX_QUERY])
    text = " ".join(text.split())
    return text.strip("\"'`“”‘’()[]{}<>").strip()


def _id_from_url(text: str) -> str | None:
    """The stable id in an official deep link (``?r=ID``), a fragment (``#ID``) or ``/id/ID``."""
    try:
        parts = urlsplit(text)
    except ValueError:
        return None
    if not (parts.scheme in ("http", "https") or text.startswith(("/", "?", "#"))):
        return None
    for key in ("r", "id", "rule"):
        values = parse_qs(parts.query).get(key)
        if values and values[0].strip():
            return values[0].strip()
    if parts.fragment.strip():
        return unquote(parts.fragment.strip())
    m = re.search(r"/(?:id|rule|rules)/([^/?#]+)/?$", parts.path)
    if m:
        return unquote(m.group(1))
    return None


def parse_query(text: str) -> ParsedRef | None:
    """Recognise a rule number, stable id or deep link; None if the text is neither."""
    if not isinstance(text, str):
        return None
    raw = text
    text = _clean(text)
    if not text:
        return None
    url_id = _id_from_url(text)
    if url_id is not None:
        return ParsedRef("id", url_id, raw=raw)
    body = _PREFIX.sub("", text, count=1).strip()
    m = _NUMBER.match(body)
    if m:
        parts = [p.strip() for p in m.group("parts").split(".")]
        letter = (m.group("letter") or "").lower()
        roman = (m.group("roman") or "").lower()
        # "6 i", "6.9 c": letters only follow a rule number (three parts); romans follow a letter.
        if letter and len(parts) != 3:
            return None
        if roman and (not letter or roman not in _ROMAN):
            return None
        number = ".".join(str(int(p)) for p in parts) + letter + (f".{roman}" if roman else "")
        return ParsedRef("number", number, with_children=bool(m.group("plus")), raw=raw)
    # A prefixed word that is not a number ("rule of thumb") is not a reference.
    if "_" in text and _ID.fullmatch(text):
        return ParsedRef("id", text, with_children=False, raw=raw)
    return None


def _parts(number: str) -> tuple[int, ...]:
    """Structural form of a number, one int per level: "6.9.4c" -> (6, 9, 4, 3)."""
    m = re.match(r"^(\d+(?:\.\d+)*)([a-z])?(?:\.([ivx]+))?$", number)
    if not m:
        return ()
    out = tuple(int(p) for p in m.group(1).split("."))
    if m.group(2):
        out += (ord(m.group(2)) - 96,)
    if m.group(3):
        out += (_ROMAN.get(m.group(3), 0),)
    return out


def number_key(number: str) -> tuple:
    """Sort key for printed numbers: 6.9 < 6.9.4 < 6.9.4a < 6.9.4b.ii < 6.10."""
    return _parts(number) or (10**6,)


def number_index(doc: Document) -> dict[str, Node]:
    """Printed number -> node, for one document (built once and kept by the document)."""
    return doc.number_index()


def _indexes(doc: Document) -> tuple[dict[str, Node], dict[str, Node]]:
    return doc.number_index(), doc.lower_id_index()


def _suggest_numbers(doc: Document, number: str, limit: int = 5) -> list[str]:
    """Existing numbers nearest to a missing one: its closest siblings, and its nearest ancestor."""
    by_number, _ = _indexes(doc)
    want = _parts(number)
    found: list[str] = []
    known = {_parts(num) for num in by_number}
    for level in range(len(want), 0, -1):
        prefix, target = want[: level - 1], want[level - 1]
        # Siblings only under a parent that exists: a missing 99.9.9 has no neighbours among
        # the chapters (9, 10, 11), and a missing chapter is offered the nearest chapters.
        if (prefix not in known) if level > 1 else len(want) > 1:
            continue
        siblings = sorted(
            (abs(p[-1] - target), p, num)
            for num in by_number
            if len(p := _parts(num)) == level and p[:-1] == prefix
        )
        found = [num for _, _, num in siblings[:3]]
        if found:
            break
    # The nearest existing ancestor ("6.9" for a missing "6.9.9") is always worth offering.
    for level in range(len(want) - 1, 0, -1):
        ancestor = next((num for num in by_number if _parts(num) == want[:level]), None)
        if ancestor:
            if ancestor not in found:
                found.append(ancestor)
            break
    return sorted(found, key=number_key)[:limit]


def _suggest_ids(doc: Document, node_id: str, limit: int = 5) -> list[str]:
    import difflib

    _, by_lower_id = _indexes(doc)
    close = difflib.get_close_matches(node_id.lower(), list(by_lower_id), n=limit, cutoff=0.75)
    return [by_lower_id[c].number or by_lower_id[c].id for c in close]


def lookup(doc: Document, text: str, with_children: bool = False) -> LookupResult:
    """Find the node a number, id or deep link names, exactly. Never raises on bad input."""
    if not isinstance(text, str):
        text = ""
    result = LookupResult(query=text[:MAX_QUERY])
    ref = parse_query(text)
    result.ref = ref
    if ref is None:
        shown = _clean(text)[:60]
        result.error = f"not a rule number or id: {shown!r}" if shown else "empty query"
        return result
    by_number, by_lower_id = _indexes(doc)
    node: Node | None = None
    want_children = with_children or ref.with_children
    if ref.kind == "number":
        node = by_number.get(ref.value)
        if node is None:
            result.error = f"no rule {ref.value} in CR {doc.version}"
            result.suggestions = _suggest_numbers(doc, ref.value)
    else:
        node = doc.node(ref.value) or by_lower_id.get(ref.value.lower())
        if node is None and ref.value.endswith("+"):
            # "rule_jack_out+" asks for the rule with its children (but "rule_54+" is a real id).
            base = ref.value.rstrip("+")
            node = doc.node(base) or by_lower_id.get(base.lower())
            want_children = want_children or node is not None
        if node is None:
            result.error = f"no rule with id {ref.value!r} in CR {doc.version}"
            result.suggestions = _suggest_ids(doc, ref.value)
    if node is not None:
        result.nodes = [node]
        if want_children:
            result.nodes.extend(doc.descendants(node.id))
    return result
