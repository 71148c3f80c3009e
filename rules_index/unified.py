"""One search box over every source: CR rules, judge items, cards and rulings in one ranked list.

Each source keeps its own index and ranking (`search.Searcher` for rules, `judge.JudgeStore`
for judge items, `cards.CardStore` for cards and rulings) and labels each hit with its
``source``. The lists are merged on one scale:

1. **tier**: ``exact`` (a rule named by number or id, a card named by its whole name) before
   ``jargon`` (the rule a judge's term means, from the curated table) before everything else;
2. **rank, then norm**: within a tier the sources take turns (rank fusion): every source's
   first hit, then every source's second, and so on. Ordering by norm alone let the short,
   word-dense questions of official rulings bury the rules: for the 409 question-like queries
   of the tuning sets, the right rule was in the first five of the merged list for 52.6 % of
   them by norm, 66.5 % by turns (rules-only search: 81-96 %). Among hits of equal rank, the
   **norm** orders them: the hit's score as a share of the best score the query could reach
   in its own index (`search.ideal_score`: for each query word, ``idf x (K1 + 1) x boost``,
   BM25's limit, summed). A raw BM25 score depends on the size and vocabulary of its index
   (40 judge items against 1,900 rules), the share of the query's evidence a hit carries does
   not, so the shares compare across indexes;
3. ties keep each source's own order (rank within its source), then the order of `SOURCES`.

A plain-English rules question (one the rules search's learned stage orders, `ranker.applies`:
no card named, not only jargon, and phrased as a question or of several word groups that are not
just a defined term; `SearchResult.question`) is
answered by rules first: the rules hits take `QUESTION_LEAD` turns before the other sources take
theirs, and card hits (found by their text, not their name) `CARD_DELAY` turns later still, but
a hit of another source carrying at least `STRONG_NORM` of the query's evidence keeps its turn
("player drew too many cards": the judge item with every word comes first). Taking turns from
the first let the words a question shares with cards and rulings bury the rules: for the 803
questions of the tuning and training sets (``bench/relevance_tuning.json``,
``relevance_train.json``, ``relevance_train2.json``) the right rule was in the merged list's
first five for 56.2 % of them (MRR@10 0.345), against 80.9 % (0.649) in the rules list alone;
with the rules leading two turns, 72.5 % (0.606), and about two hits of the other sources still
in the first five (``bench/relevance.py --sources``).

So "Snare!" puts the card first (exact name) and the rules mentioning it after; "player drew too
many cards" puts the judge item, which has every word, before rules that only mention drawing;
"6.9.4c" puts the rule first, then the rules and judge items citing it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from memo import memo

from .cards import era_note, first_sentence, name_key, ruling_text
from .lookup import parse_query
from .question import LONG_QUERY, MAX_NAMES, changes_asked, focus, term_asked

if TYPE_CHECKING:
    from scraper.nrdb import Ruling

    from .search import SearchResult
    from .store import Library

__all__ = ["SOURCES", "UnifiedResult", "merge", "search_sources", "available_sources"]

log = logging.getLogger(__name__)

SOURCES = ("rules", "cards", "rulings", "judge")
TIERS = {"exact": 3, "jargon": 2, "defines": 2, "looser": 0}  # every other match is tier 1
# The card store's scores: a whole name 1000, the start of a name 900 and down (shortest
# name first), BM25F well below 100 (CARDS_API.md).
EXACT_NAME, NAME_PREFIX = 1000.0, 100.0
# A plain-English question: the turns the rules take first, the further wait of card hits, and
# the share of the query's evidence that lets another source's hit keep its turn (measured on
# the tuning and training questions, see above: 1-3 turns, 0-2 more for cards, 0.6-0.9 tried).
QUESTION_LEAD = 2
CARD_DELAY = 2
STRONG_NORM = 0.8
# A hit of another source than the rules, found by its words, takes its turn only when relevant:
# when its norm is at least RELEVANT_NORM, or RELEVANT_SHARE of the best rule's found by words
# (a long post spreads its evidence thin over many words: every norm is low); otherwise it
# waits IRRELEVANT_DELAY turns, after the first rules ("Jak Sinclair gaining clicks": a judge
# item sharing one word, norm 0.07 beside the best rule's 0.62, no longer fills a place in the
# top five). Chosen on the tuning and training sets (issue 34, see `merge`).
RELEVANT_NORM = 0.3
RELEVANT_SHARE = 0.5
IRRELEVANT_DELAY = 5
# A query of this many words or more (`search.index_words`), or a plain-English question, is
# asked about something: a card or ruling hit is relevant to it only when the query names that
# card (`cards.NameMatcher.mentioned`), a judge item only when it carries `STRONG_NORM` of the
# query's evidence. A named card's hits wait `QUESTION_LEAD` turns, the rules' first answers
# before them; the others wait `UNGROUNDED_DELAY` turns, after the first screen of rules. The
# shares of two indexes' evidence do not compare for such queries: a long post names cards,
# so the card index finds its words in their texts at a higher share than any rule (rules 0.05-0.2,
# unrelated cards 0.1-0.5), and a source's first hit took a place in the top five whatever it
# was ("If you play a Parasite card...": Ice Wall, Top Hat and Botulus's ruling before the
# hosting rule). On the real questions' train split (bench/relevance_real.json, 279 questions,
# chosen on it only: 3-8 words, leads 0-3, delays 5-10), the right rule in the served list's
# first five for 43.0 % -> 52.3 % (MRR@10 0.309 -> 0.382; the rules list alone 57.0 % / 0.394)
# and the named card or its ruling in the first five for 54 % -> 75 % of the 224 naming one.
ASKING_WORDS = 5
UNGROUNDED_DELAY = 10


@dataclass
class UnifiedResult:
    """Hits of every source searched, merged; ``offer`` is the rules search's answer, whose
    offers (nearest numbers, spelling, looser hits) are kept only when nothing was found."""

    query: str
    sources: list[str]
    hits: list[Any] = field(default_factory=list)  # SearchHit | JudgeHit | card hits, best first
    offer: SearchResult | None = None
    searched: str = ""  # what was searched: the query, or a long post's question (`question.focus`)
    showing: dict[str, str] | None = None  # a card named with a typo: {"id", "title", "typed"}
    changes: tuple[str, str] | None = None  # a question about changes: (older, newer) version
    # sources built but damaged, searched without: source -> why (`unavailable_sources`)
    unavailable: dict[str, str] = field(default_factory=dict)


def _tier(hit: Any) -> int:
    return TIERS.get(getattr(hit, "match", "text"), 1)


def merge(
    lists: dict[str, list[Any]],
    limit: int,
    question: bool = False,
    named: frozenset[str] | None = None,
) -> list[Any]:
    """One ranked list from per-source lists (each best first), by tier, then rank within its
    source, then norm, then source order: within a tier the sources take turns, each source's
    best first, and the norm orders the hits of equal rank. For a plain-English ``question``
    the rules take the first turns (`QUESTION_LEAD`, `CARD_DELAY`, `STRONG_NORM`). A hit of
    another source that is not relevant enough (`RELEVANT_NORM`, `RELEVANT_SHARE`) waits
    `IRRELEVANT_DELAY` turns: no source has a place in the first results whatever its
    relevance (on the tuning and training sets, 803 questions, a judge item was in the first
    five for 95-99 % of them, 9-23 % with the wait; the right rule ranks as before: MRR@10
    0.989, 0.978, 0.988 on the three sets, and 0.911 -> 0.912 on relevance_set.json).
    With ``named`` (the ids of the cards an asking query names, `ASKING_WORDS`), the hits of
    other sources found by their words are placed by whether they are about what is asked
    instead: a card or ruling of a named card waits `QUESTION_LEAD` turns, a judge item with
    `STRONG_NORM` of the evidence keeps its turn, every other waits `UNGROUNDED_DELAY` turns
    (cards `CARD_DELAY` more). Duplicates (same source and id) are kept once."""
    order = {s: i for i, s in enumerate(SOURCES)}
    by_words = [float(getattr(h, "norm", 0.0)) for h in lists.get("rules", []) if _tier(h) == 1]
    floor = min(RELEVANT_NORM, RELEVANT_SHARE * max(by_words, default=1.0))
    rows = []
    for source, hits in lists.items():
        for rank, hit in enumerate(hits):
            norm = float(getattr(hit, "norm", 0.0))
            turn = rank
            if named is not None:
                turn += _wait(source, hit, norm, named)
                rows.append(((-_tier(hit), turn, -norm, order.get(source, len(order))), hit))
                continue
            if question and source != "rules" and _tier(hit) == 1 and norm < STRONG_NORM:
                turn += QUESTION_LEAD + (CARD_DELAY if source == "cards" else 0)
            if source != "rules" and _tier(hit) == 1 and norm < floor:
                turn += IRRELEVANT_DELAY  # not relevant enough for a place among the first
            rows.append(((-_tier(hit), turn, -norm, order.get(source, len(order))), hit))
    rows.sort(key=lambda row: row[0])
    out, seen = [], set()
    for _, hit in rows:
        ident = (
            getattr(hit, "source", ""),
            getattr(hit, "id", None) or id(hit),
            getattr(hit, "ruling", None),
        )
        if ident not in seen:
            seen.add(ident)
            out.append(hit)
    return out[:limit]


def _wait(source: str, hit: Any, norm: float, named: frozenset[str]) -> int:
    """The turns a hit found by its words waits in an asking query's list (`merge`)."""
    if source == "rules" or _tier(hit) != 1:
        return 0
    if source == "judge":
        return 0 if norm >= STRONG_NORM else UNGROUNDED_DELAY
    if getattr(hit, "id", None) in named:
        return QUESTION_LEAD
    return UNGROUNDED_DELAY + (CARD_DELAY if source == "cards" else 0)


def asking(query: str, question: bool) -> bool:
    """Whether a query asks about something (`ASKING_WORDS` words, or a plain-English question
    by the rules search, `SearchResult.question`): its list is merged by relevance to what it
    names (`merge`'s ``named``)."""
    from .search import index_words

    return question or len(index_words(query)) >= ASKING_WORDS


def available_sources(library: Library) -> list[str]:
    """The sources built in this library, in `SOURCES` order (rules always)."""
    out = ["rules"]
    if _cards(library) is not None:
        out += ["cards", "rulings"]
    if library.judge() is not None:
        out.append("judge")
    return [s for s in SOURCES if s in out]


def unavailable_sources(library: Library) -> dict[str, str]:
    """The sources that are built but cannot be served (a damaged card or judges' build), each
    with why: search goes on with the sound ones and says so (issue 38)."""
    available_sources(library)  # opens the builds, which records their problems
    problems = dict(library.source_problems)
    out = {}
    if "cards" in problems:
        out.update(cards=problems["cards"], rulings=problems["cards"])
    if "judge" in problems:
        out["judge"] = problems["judge"]
    return out


def _cards(library: Library):
    try:
        return library.cards()
    except Exception:  # noqa: BLE001 - no card build (LibraryError) or a damaged one: no cards
        return None


@dataclass
class CardResult:
    """A card or ruling hit on the merged scale (``id`` is the card id; ``ruling`` the index
    of a ruling among the card's rulings, newest first)."""

    source: str
    id: str
    title: str
    snippet: str
    score: float
    norm: float
    match: str
    ruling: int | None = None
    answer: str | None = None  # rulings: the first sentence of the answer (`cards.first_sentence`)
    note: str | None = None  # rulings: `cards.era_note`


def card_hits(
    store, query: str, sources: tuple[str, ...], limit: int, typos: bool = True
) -> dict[str, list[CardResult]]:
    """Card and ruling hits with their norm, per source: a card named by its whole name is
    exact; one whose name starts with the query has the share of its name typed; the rest
    their BM25F score (`CardStore.rank`, which matches the words as the rules index does)
    over the best score the query could reach in the card index."""
    from .search import norm_of  # the search module (Whoosh, numpy) on first search, not on import

    out: dict[str, list[CardResult]] = {s: [] for s in sources}
    typed = name_key(query)
    named = store.named(query, limit, typos) if "cards" in sources else []
    for m in named:
        card = store.card(m.card_id)
        if card is None:
            continue
        exact = m.score >= EXACT_NAME
        # the start of a card's name ("corr" for Corroder): the share of the name typed
        norm = 1.0 if exact else round(min(1.0, len(typed) / max(1, len(name_key(card.title)))), 4)
        match = "exact" if exact else "text"
        out["cards"].append(CardResult("cards", m.card_id, card.title, "", m.score, norm, match))
    ranked, ideal = store.rank(query, sources, limit, skip=frozenset(h.id for h in out.get("cards", [])))
    for source, found in ranked.items():
        room = limit - len(out[source])
        for r in found[: max(0, room)]:
            card = store.card(r.card_id)
            out[source].append(
                CardResult(
                    source, r.card_id, card.title, "", r.score, norm_of(r.score, ideal), "text", r.ruling
                )
            )
    return out


CARD_SNIPPET_CHARS = 160  # cards and rulings are short; their snippets are shorter than a rule's


def card_snippets(store, hits: list, query: str) -> None:
    """The snippet of each card and ruling hit of ``hits`` (made for the hits kept only): HTML,
    the query's words in <mark>, as the rules' and judge items' snippets."""
    from .search import index_words, mark_words

    stems = frozenset(index_words(query))
    for hit in hits:
        if getattr(hit, "source", None) == "cards" and not hit.snippet:
            hit.snippet = mark_words(store.card(hit.id).stripped_text, stems, CARD_SNIPPET_CHARS)
        elif getattr(hit, "source", None) == "rulings" and not hit.snippet:
            ruling = store.rulings(hit.id)[hit.ruling]
            words, hit.answer = _ruling_words(ruling)
            hit.snippet = mark_words(words, stems, CARD_SNIPPET_CHARS)
            hit.note = era_note(ruling)


@memo("unified.ruling_words")  # rulings are few (about 2,000) and read-only; bounded all the same
def _ruling_words(ruling: Ruling) -> tuple[str, str | None]:
    """The plain text a ruling's snippet is cut from: its question, else its ruling (markdown
    and its source heading removed, `ruling_text`, several regular expressions a ruling); and
    the first sentence of its answer (None for a ruling without a question)."""
    found = ruling_text(ruling)
    answer = first_sentence(found.answer) if found.question else None
    return found.question or found.text or "", answer


def search_sources(
    library: Library, query: str, version: str, sources: list[str], limit: int = 10
) -> UnifiedResult:
    """Search each of ``sources`` (names from `SOURCES`, assumed available) and merge them. A
    query longer than `search.MAX_QUERY` (a forum post, up to `question.LONG_QUERY`) is cut
    to its question, then the names of the cards it mentions (`question.focus`), so a long
    post costs what a short question does."""
    from .search import SearchResult  # the search module (Whoosh, numpy) on first search

    store = _cards(library)  # also for the card names of a long post searched in the rules only
    full = query
    query = focus(query[: LONG_QUERY * 2], _mentions(store) if store is not None else None)
    asked = term_asked(query)
    if asked and parse_query(asked) is not None:  # "what is 6.9.4c": the rule it names
        query = asked
    result = UnifiedResult(query=full, sources=list(sources), searched=query)
    named = store.named(query, 1) if store is not None and "cards" in sources else []
    typos = True
    if (
        named
        and named[0].how == "typo"
        and library.searcher(version).defines(store.card(named[0].card_id).title)
    ):
        # "checkpoitn": a typo of a card's name that is also a term the CR defines means the term
        named, typos = [], False
    if named and named[0].corrected:
        # A card named with a typo, in the plural or by part of its name: searched by its name.
        title = store.card(named[0].card_id).title
        result.showing = {"id": named[0].card_id, "title": title, "typed": query}
        query = result.searched = title
    lists: dict[str, list[Any]] = {}
    searcher = library.searcher(version)
    ref = parse_query(query)
    exact_rule = None
    result.changes = changes_asked(query, library.available_versions())
    if "rules" in sources:
        result.offer = searcher.search_result(query, limit, snippets=False)
        lists["rules"] = result.offer.hits
        if result.offer.hits and result.offer.hits[0].match == "exact":
            exact_rule = result.offer.hits[0]
        term = term_asked(query) if exact_rule is None else None
        defined = searcher.defining(term) if term else None
        if defined is not None:
            # "define X", "what is X": the rule defining X first, the rules search's hits after
            first = searcher._hit(defined, 500.0, None, "defines", norm=1.0)
            lists["rules"] = [first] + [h for h in lists["rules"] if h.id != defined.id][: limit - 1]
    elif ref is not None:
        found = library.lookup(query, version)
        exact_rule = found.node
    judge = library.judge() if "judge" in sources else None
    if judge is not None:
        try:
            if exact_rule is not None:
                # A rule number or id: the judge items citing that rule, not its digits as words.
                lists["judge"] = [
                    judge.hit(item.id, match="cites") for item in judge.citing(exact_rule.id, library)
                ][:limit]
            elif ref is None or ref.kind != "number":
                lists["judge"] = judge.search(query, limit=limit, snippets=False)
        except Exception as exc:  # noqa: BLE001 - a judges' index damaged past its checksums
            judge = _lost(library, result, "judge", exc, ("judge",))
    card_sources = tuple(s for s in ("cards", "rulings") if s in sources)
    words = exact_rule is None and (ref is None or ref.kind != "number")  # search by words?
    if not (card_sources and words):
        store = None
    if store is not None:
        try:
            lists.update(card_hits(store, query, card_sources, limit, typos))
        except Exception as exc:  # noqa: BLE001 - a card index damaged past its checksums
            store = _lost(library, result, "cards", exc, card_sources)
    for name, problem in unavailable_sources(library).items():
        if name not in sources:
            result.unavailable.setdefault(name, problem)
    question = result.offer is not None and result.offer.question
    named = None
    if asking(query, question):
        found = _cards(library) if card_sources else None
        named = frozenset(found.matcher.mentioned(query, MAX_NAMES)) if found is not None else frozenset()
    result.hits = merge(lists, limit, question, named)
    # Snippets for the hits kept only: each source found up to ``limit``, one list keeps ``limit``.
    if result.offer is not None:
        searcher.with_snippets(result.hits, result.offer.terms)
    if judge is not None:
        judge.with_snippets(result.hits, query)
    if store is not None:
        card_snippets(store, result.hits, query)
    if result.hits and result.offer is not None and not result.offer.hits:
        result.offer = SearchResult(query=result.offer.query, hits=[])
    return result


def _lost(library: Library, result: UnifiedResult, name: str, exc: Exception, sources: tuple[str, ...]):
    """A source whose index failed while searching: recorded (`Library.source_problems`) and
    said in the answer; the search goes on without it. Returns None (the store to use)."""
    library.report_source_problem(
        name, f"its search index is damaged ({type(exc).__name__}); rebuild it with `nrrules build --force`"
    )
    for source in sources:
        result.unavailable[source] = library.source_problems[name]
    return None


def _mentions(store):
    """The titles of the cards a long post names (`cards.NameMatcher.mentioned`)."""

    def mentioned(text: str) -> list[str]:
        return [store.card(cid).title for cid in store.matcher.mentioned(text, MAX_NAMES)]

    return mentioned
