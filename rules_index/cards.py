"""The on-disk card build next to the rules: cards, rulings, Standard legality, a Whoosh index.

Layout inside a build directory (beside the CR versions, see `rules_index.store`)::

    <build_dir>/cards -> .v/cards-<hash12>-<tmp>     (symlink, swapped atomically)
        cards.json    cards, printings, rulings, tables, each card's Standard legality at build
                      time, and the snapshots, card pools and ban lists it is computed from
                      again when asked (for the current date)
        meta.json     source, source hash, code fingerprint, counts, when it was built
        search/       Whoosh index over cards (title, text, subtypes) and rulings (question, answer)

A build is written under the build directory's lock into a temporary directory and only then
made visible by replacing the symlink (`rules_index.store.publish`, as for the CR versions); it
is redone only when the source bytes (or this code) change, so a failed build never damages a
good one.

`CardStore` reads a build: lookup by card id, by NetrunnerDB code, and by a forgiving name
("Snare", "snare!", "Sn@re!"), rulings newest first, the CR rules that mention a card (through
the codes the CR's card links carry), the rule numbers its rulings cite, and search.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import logging
import re
import threading
import time
import unicodedata
from dataclasses import asdict, dataclass, field
from pathlib import Path

from scraper import Document, ScrapeError, schema
from scraper.model import Node
from scraper.nrdb import (
    Card,
    CardData,
    CardPool,
    CardSet,
    Format,
    Printing,
    Restriction,
    Ruling,
    Snapshot,
    load,
    plain_text,
)

from .integrity import build_lock, check_build_dir, check_build_file, check_cards_not_a_regression, manifest
from .store import OK, STALE, LibraryError, publish

log = logging.getLogger(__name__)
CARDS_DIR = "cards"  # the symlink's name inside a build directory
# What a card build stores, versioned: raised whenever the stored fields change, so that
# `nrrules build --cards` redoes an older build even when its source has not changed, and a
# server reading one says it needs a rebuild. 1: the first builds; 2: Standard legality names the
# ban list and its date, and the build keeps the snapshots, card pools and ban lists that
# legality is computed from for the current date.
CARDS_FORMAT = "nrrules-cards/2"
OLDER_FORMATS = ("nrrules-cards/1",)  # still read, reported as needing a rebuild
STANDARD = "standard"
_FINGERPRINT_FILES = ("scraper/nrdb.py", "scraper/source.py", "rules_index/cards.py")
MAX_QUERY = 200
MAX_LIMIT = 100
EXACT_SCORE = 1000.0  # a card whose whole name is the query
PREFIX_SCORE = 900.0  # the best card whose name starts with the query
CARD_BM25_B, CARD_BM25_K1 = 0.75, 1.2  # Whoosh's BM25F defaults (the card ranking is not tuned)


class CardsNotBuilt(LookupError):
    """No card data is built in the build directory."""


def code_fingerprint() -> str:
    root = Path(__file__).resolve().parent.parent
    h = hashlib.sha256()
    for rel in _FINGERPRINT_FILES:
        p = root / rel
        if p.exists():
            h.update(rel.encode())
            h.update(p.read_bytes())
    return h.hexdigest()[:16]


# ----------------------------------------------------------------------------------------------
# Records of the build
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Legality:
    """A card's standing in a format's current snapshot."""

    format: str
    legal: bool
    status: str  # "legal", "restricted", "banned", "rotated", "not in the card pool", "unknown"
    snapshot: str | None = None
    card_pool: str | None = None
    restriction: str | None = None  # the ban list's id
    restriction_name: str | None = None  # its name as NetrunnerDB gives it ("Standard Ban List 25.10")
    restriction_date: str | None = None  # the date it took effect (ISO)
    as_of: str | None = None  # the date (UTC, ISO) the legality was computed for

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class CardsInfo:
    source: str
    source_hash: str
    built_at: float
    cards: int
    printings: int
    rulings: int
    standard: dict  # snapshot, card pool and restriction names
    notes: tuple[str, ...] = ()
    format: str = CARDS_FORMAT
    problem: str | None = None  # why the build should be redone (an older format), else None

    @property
    def status(self) -> str:
        return OK if self.problem is None else STALE

    def to_dict(self) -> dict:
        out = {
            "source": self.source,
            "source_hash": self.source_hash,
            "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(self.built_at)),
            "cards": self.cards,
            "printings": self.printings,
            "rulings": self.rulings,
            "standard": self.standard,
            "status": self.status,
        }
        if self.problem:
            out["problem"] = self.problem
        return out


@dataclass(frozen=True)
class CardsBuildResult:
    status: str  # "built" or "unchanged"
    source: str
    cards: int
    printings: int
    rulings: int
    seconds: float
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class CardHit:
    source: str  # "cards" or "rulings"
    card_id: str
    title: str
    score: float
    snippet: str
    ruling: int | None = None  # index into the card's rulings (newest first) for ruling hits
    how: str | None = None  # a card found by its name: how (`NameMatch.how`)

    def to_dict(self) -> dict:
        return asdict(self)


# ----------------------------------------------------------------------------------------------
# Names
# ----------------------------------------------------------------------------------------------


_NOT_ALNUM = re.compile(r"[\W_]+")


def name_key(text: str) -> str:
    """Case, accents and punctuation forgiven: "Sn@re!" and "snare" differ by one letter,
    "Méliès" and "melies" not at all."""
    text = text or ""
    if text.isascii():  # most names: the same key, several times faster
        return _NOT_ALNUM.sub("", text.casefold())
    folded = unicodedata.normalize("NFKD", text or "")
    folded = "".join(c for c in folded if not unicodedata.combining(c)).casefold()
    return "".join(c for c in folded if c.isalnum())


CORRECTED = ("part", "plural", "typo")  # how a card is found under another name than the one typed
_NAME_WORD = re.compile(r"[^\W_]+(?:['’.&-][^\W_]+)*")
MAX_NAME_WORDS = 7  # the most words of a card name looked for in a text (longest names have 7)


@dataclass(frozen=True)
class NameMatch:
    """A card a typed name means: ``how`` is ``exact`` (its whole name), ``part`` (the part of
    an identity's name before or after its colon, naming one card: "reality plus", "alice
    merchant"), ``prefix`` (its name starts with what was typed), ``plural`` ("Mediums") or
    ``typo`` (within `NameMatcher.edits` of a name, typed with a word no card uses:
    "tolbooth", "hostile takover"). ``score``: `EXACT_SCORE` for every whole name (exact, part,
    plural, typo), prefixes from `PREFIX_SCORE` down, shortest name first."""

    card_id: str
    score: float
    how: str

    @property
    def corrected(self) -> bool:
        """The name shown is not the name typed (part, plural, typo): say so."""
        return self.how in CORRECTED


class NameMatcher:
    """The one card-name matcher (search, the card pickers, ``/c/<name>``, a post's card names),
    built once per loaded card build: every name's `name_key`, the parts of identities'
    names and names without their leading "The", a sorted key list for prefixes, a one-deletion index for typos and the words the
    cards use (a query of known words is no typo: "score" is not "Scorch")."""

    def __init__(self, cards: dict[str, Card]) -> None:
        self.names: dict[str, list[str]] = {}  # whole name key -> card ids
        parts: dict[str, list[str]] = {}
        raw: set[str] = set()  # each distinct word once: `name_key` is the costly part
        for c in cards.values():
            for title in dict.fromkeys((c.title, c.stripped_title)):
                self.names.setdefault(name_key(title), []).append(c.id)
                for part in title.split(":", 1) if ":" in title else ():
                    parts.setdefault(name_key(part), []).append(c.id)
                if title.casefold().startswith("the "):
                    parts.setdefault(name_key(title[4:]), []).append(c.id)
                raw.update(title.split())
            raw.update((c.stripped_text or "").split())
        for ids in self.names.values():
            ids[:] = dict.fromkeys(ids)
        # A part naming one card and no card's whole name ("nbn" names a dozen: not a part).
        self.parts = {
            k: ids
            for k, ids in parts.items()
            if len(k) >= 4 and k not in self.names and len(dict.fromkeys(ids)) == 1
        }
        self.order = sorted({*self.names, *self.parts})
        self.words = frozenset(name_key(w) for w in raw)
        self.by_delete: dict[str, list[str]] = {}
        for key in self.order:
            if len(key) >= 4:
                for d in {key[:i] + key[i + 1 :] for i in range(len(key))}:
                    self.by_delete.setdefault(d, []).append(key)

    def ids(self, key: str) -> list[str]:
        return self.names.get(key) or self.parts.get(key) or []

    @staticmethod
    def edits(key: str) -> int:
        """Edits a name typed as ``key`` may carry: none under 4 letters, 1 under 8, else 2."""
        return 0 if len(key) < 4 else 1 if len(key) < 8 else 2

    def match(self, query: str, limit: int = 10, typos: bool = True) -> list[NameMatch]:
        """The cards a typed name means, best first: its whole name (or an identity's part),
        else names starting with it (2+ letters, shortest first) and, for 4+ letters, its
        singular ("Mediums"); when none, the names within `edits` typos of it if it has a word
        no card uses. Bounded: a key of at most `MAX_QUERY` characters, typos only for keys of
        at most 48 (longer than any name), two deletions of it looked up. ``typos`` False:
        no typos (a caller that knows the typed word is a rules term)."""
        key = name_key(query)[:MAX_QUERY]
        if not key:
            return []
        out: dict[str, NameMatch] = {}
        for cid in self.names.get(key, []):
            out.setdefault(cid, NameMatch(cid, EXACT_SCORE, "exact"))
        for cid in self.parts.get(key, []):
            out.setdefault(cid, NameMatch(cid, EXACT_SCORE, "part"))
        if not out and len(key) >= 4 and key.endswith("s"):
            singulars = [
                key[:-1],
                key[:-2] if key.endswith("es") else "",
                key[:-3] + "y" if key.endswith("ies") else "",
            ]
            singular = next((k for k in singulars if k and self.ids(k)), None)
            for cid in self.ids(singular) if singular else []:
                out.setdefault(cid, NameMatch(cid, EXACT_SCORE, "plural"))
        if len(key) >= 2:
            start = bisect.bisect_left(self.order, key)
            end = bisect.bisect_left(self.order, key + "\uffff", start)
            starts = sorted((k for k in self.order[start:end] if k != key), key=lambda k: (len(k), k))
            for rank, k in enumerate(starts[:limit]):
                for cid in self.ids(k):
                    out.setdefault(cid, NameMatch(cid, PREFIX_SCORE - rank, "prefix"))
        if typos and not out and self.edits(key) and len(key) <= 48 and self._unknown(query):
            for rank, k in enumerate(self._near(key)[:limit]):
                for cid in self.ids(k):
                    out.setdefault(cid, NameMatch(cid, EXACT_SCORE - rank, "typo"))
        return sorted(out.values(), key=lambda m: -m.score)[:limit]

    def _unknown(self, query: str) -> bool:
        """Whether the query has a word of 4+ letters (as `name_key` reads it: "Sn@re" is
        "snre") that no card's name or text uses."""
        return any(len(k) >= 4 and k not in self.words for k in map(name_key, query.split()))

    def _near(self, key: str) -> list[str]:
        """Name keys within `edits` of ``key`` (optimal string alignment), nearest first: the
        keys sharing a one-deletion form with ``key`` or one of its one- and two-deletion forms
        (every key one edit away, and two edits made of a deletion on each side, an insertion
        and a deletion, or a transposition and another edit)."""
        from .search import _distance

        limit = self.edits(key)
        ones = {key[:i] + key[i + 1 :] for i in range(len(key))}
        forms = {key} | ones
        if limit >= 2:
            forms |= {d[:i] + d[i + 1 :] for d in ones for i in range(len(d))}
        candidates: set[str] = set()
        for form in forms:
            if form in self.names or form in self.parts:
                candidates.add(form)
            candidates.update(self.by_delete.get(form, ()))
        found = []
        for cand in candidates:
            dist = _distance(key, cand, limit)
            if dist <= limit:
                found.append((dist, len(cand), cand))
        return [cand for _, _, cand in sorted(found)]

    def mentioned(self, text: str, limit: int = 8) -> list[str]:
        """The cards a text (a forum post) names, as card ids, in the order first named: runs
        of up to `MAX_NAME_WORDS` words that make a card's whole name (or an identity's part),
        longest first; a one-word name only as a capitalised word of 4+ letters ("Tollbooth",
        not "tollbooth" nor "run"). One pass over the words: linear in the text."""
        found: dict[str, None] = {}
        words = _NAME_WORD.findall(text)
        keys = [name_key(w) for w in words]
        i = 0
        while i < len(words) and len(found) < limit:
            for n in range(min(MAX_NAME_WORDS, len(words) - i), 0, -1):
                key = "".join(keys[i : i + n])
                ids = self.ids(key)
                if not ids or (n == 1 and (len(key) < 4 or not words[i][:1].isupper())):
                    continue
                if len(ids) == 1:
                    found.setdefault(ids[0], None)
                i += n - 1
                break
            i += 1
        return list(found)[:limit]


# ----------------------------------------------------------------------------------------------
# Legality
# ----------------------------------------------------------------------------------------------


def _effective(data: CardData, snap: Snapshot) -> str | None:
    """When a snapshot takes effect: its ban list's start date, which NetrunnerDB keeps right,
    else the snapshot's own (which is a year early for the last snapshots of the 2025 data:
    standard_32's says 2024-10-03, its ban list 25.10 says 2025-10-03)."""
    r = data.restrictions.get(snap.restriction_id or "")
    return (r.date_start if r is not None and r.date_start else None) or snap.date_start or None


def current_snapshot(data: CardData, fmt: Format, today: str) -> Snapshot | None:
    """The snapshot in force on `today` (ISO date): of those that have taken effect, the one
    that took effect last (the later listed on a tie). When none has a date, the one
    NetrunnerDB marks `active`, else the last listed."""
    dated = [(_effective(data, s), i, s) for i, s in enumerate(fmt.snapshots)]
    in_force = [t for t in dated if t[0] is not None and t[0] <= today]
    if in_force:
        return max(in_force, key=lambda t: (t[0], t[1]))[2]
    active = [s for s in fmt.snapshots if s.active]
    return active[-1] if active else fmt.latest()


def standard_legality(data: CardData, today: str | None = None) -> tuple[dict[str, Legality], dict]:
    """Every card's legality in the Standard snapshot in force on `today` (default: the
    current UTC date), and that snapshot's names and dates."""
    today = today or today_utc()
    fmt = data.formats.get(STANDARD)
    snap = current_snapshot(data, fmt, today) if fmt else None
    pool = data.card_pools.get(snap.card_pool_id) if snap else None
    if snap is None or pool is None:
        unknown = Legality(STANDARD, False, "unknown")
        return {cid: unknown for cid in data.cards}, {}
    restriction = data.restrictions.get(snap.restriction_id or "")
    sets_of: dict[str, set[str]] = {}
    for p in data.printings.values():
        sets_of.setdefault(p.card_id, set()).add(p.card_set_id)

    def in_pool(card_id: str, pool_sets: frozenset[str], pool_cycles: frozenset[str]) -> bool:
        for set_id in sets_of.get(card_id, ()):
            s = data.card_sets.get(set_id)
            if set_id in pool_sets or (s is not None and s.card_cycle_id in pool_cycles):
                return True
        return False

    earlier = [data.card_pools[s.card_pool_id] for s in fmt.snapshots if s.card_pool_id in data.card_pools]
    out: dict[str, Legality] = {}
    common = {
        "snapshot": snap.id,
        "card_pool": pool.id,
        "restriction": restriction.id if restriction else None,
        "restriction_name": restriction.name if restriction else None,
        "restriction_date": (restriction.date_start or None) if restriction else None,
        "as_of": today,
    }
    for cid, card in data.cards.items():
        if not in_pool(cid, pool.card_set_ids, pool.card_cycle_ids):
            was = any(in_pool(cid, p.card_set_ids, p.card_cycle_ids) for p in earlier)
            out[cid] = Legality(STANDARD, False, "rotated" if was else "not in the card pool", **common)
        elif restriction and (cid in restriction.banned or set(card.subtypes) & restriction.banned_subtypes):
            out[cid] = Legality(STANDARD, False, "banned", **common)
        elif restriction and cid in restriction.restricted:
            out[cid] = Legality(STANDARD, True, "restricted", **common)
        else:
            out[cid] = Legality(STANDARD, True, "legal", **common)
    names = {
        "format": fmt.name,
        "snapshot": snap.id,
        "card_pool": pool.id,
        "card_pool_name": pool.name,
        "restriction": restriction.id if restriction else None,
        "restriction_name": restriction.name if restriction else None,
        "date_start": _effective(data, snap),
        "as_of": today,
        # what NetrunnerDB itself marked active when the data was published (it may be older)
        "active_in_data": next((s.id for s in fmt.snapshots if s.active), None),
    }
    return out, names


# ----------------------------------------------------------------------------------------------
# Building
# ----------------------------------------------------------------------------------------------


def _read_meta(path: Path, formats: tuple[str, ...] = (CARDS_FORMAT,)) -> dict | None:
    """A build's meta.json if it is in one of `formats` (default: the current one), else None."""
    try:
        meta = json.loads((path / "meta.json").read_text())
    except (OSError, ValueError):
        return None
    return meta if isinstance(meta, dict) and meta.get("format") in formats else None


def _serialise(data: CardData, legality: dict[str, Legality]) -> dict:
    def rows(table: dict) -> list[dict]:
        return [asdict(v) for v in table.values()]

    fmt = data.formats.get(STANDARD)
    return {
        "cards": [{**asdict(c), "standard": legality[c.id].to_dict()} for c in data.cards.values()],
        "printings": rows(data.printings),
        "rulings": [asdict(r) for r in data.rulings],
        "card_types": rows(data.card_types),
        "card_subtypes": rows(data.card_subtypes),
        "factions": rows(data.factions),
        "sides": rows(data.sides),
        "card_sets": rows(data.card_sets),
        # what Standard legality is computed from, at request time for the current date
        # (`CardStore.legality`): the format's snapshots, their card pools and ban lists
        "standard_format": asdict(fmt) if fmt else None,
        "card_pools": rows(data.card_pools),
        "restrictions": rows(data.restrictions),
    }


def _legality_data(raw: dict, cards: dict[str, Card], printings: dict[str, Printing]) -> CardData | None:
    """The part of the card data `standard_legality` reads, rebuilt from a build's cards.json
    (None for a build made before it was stored)."""
    fmt = raw.get("standard_format")
    if not fmt:
        return None
    snapshots = tuple(Snapshot(**sn) for sn in fmt.get("snapshots", ()))
    pools = {
        p["id"]: CardPool(
            **{
                **p,
                "card_cycle_ids": frozenset(p["card_cycle_ids"]),
                "card_set_ids": frozenset(p["card_set_ids"]),
            }
        )
        for p in raw.get("card_pools", ())
    }
    restrictions = {
        r["id"]: Restriction(
            **{
                **r,
                "banned": frozenset(r["banned"]),
                "restricted": frozenset(r["restricted"]),
                "banned_subtypes": frozenset(r["banned_subtypes"]),
                "points": tuple(tuple(x) for x in r["points"]),
            }
        )
        for r in raw.get("restrictions", ())
    }
    return CardData(
        source="",
        source_hash="",
        cards=cards,
        printings=printings,
        rulings=(),
        card_sets={row["id"]: CardSet(**row) for row in raw.get("card_sets", ())},
        formats={STANDARD: Format(fmt["id"], fmt["name"], snapshots)},
        card_pools=pools,
        restrictions=restrictions,
    )


def today_utc() -> str:
    return time.strftime("%Y-%m-%d", time.gmtime())


def build_cards(
    spec: str | None,
    build_dir: Path,
    force: bool = False,
    cache_dir: Path | None = None,
) -> CardsBuildResult:
    """Read card data from a folder or URL and build it into `build_dir`/cards.

    Raises ScrapeError for bad input; the previous good build then stays in place."""
    t0 = time.perf_counter()
    build_dir = Path(build_dir)
    data = load(spec, cache_dir=cache_dir)
    link = build_dir / CARDS_DIR
    old = _read_meta(link) if link.is_dir() else None  # an older format is redone
    older = _read_meta(link, OLDER_FORMATS) if old is None and link.is_dir() else None
    notes = data.notes + ((f"rebuilt: the previous build was in format {older['format']}",) if older else ())
    fingerprint = code_fingerprint()
    counts = {"cards": len(data.cards), "printings": len(data.printings), "rulings": len(data.rulings)}
    if not force:
        check_cards_not_a_regression(counts, old or older, data.source)
    legality, standard = standard_legality(data)
    if (
        not force
        and old is not None
        and old.get("source_hash") == data.source_hash
        and old.get("code") == fingerprint
        and (old.get("standard") or {}).get("snapshot") == standard.get("snapshot")
    ):
        return CardsBuildResult(
            "unchanged", data.source, **counts, seconds=time.perf_counter() - t0, notes=data.notes
        )

    def write(tmp: Path) -> None:
        (tmp / "cards.json").write_text(
            json.dumps(_serialise(data, legality), ensure_ascii=False, default=sorted), encoding="utf-8"
        )
        (tmp / "search").mkdir()
        _build_index(data, tmp / "search")
        meta = {
            "format": CARDS_FORMAT,
            "code": fingerprint,
            "source": data.source,
            "source_hash": data.source_hash,
            "built_at": time.time(),
            "standard": standard,
            "notes": list(data.notes),
            **counts,
        }
        meta["files"] = manifest(tmp)  # checked when the build is opened (`CardStore`)
        (tmp / "meta.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")

    try:
        with build_lock(build_dir):
            publish(build_dir, CARDS_DIR, ".v", f"cards-{data.source_hash[:12]}", write)
    except OSError as exc:
        raise LibraryError(
            f"cannot write the build directory ({exc.strerror or type(exc).__name__})",
            path=getattr(exc, "filename", None) or build_dir,
        ) from None
    return CardsBuildResult("built", data.source, **counts, seconds=time.perf_counter() - t0, notes=notes)


# ----------------------------------------------------------------------------------------------
# Search index
# ----------------------------------------------------------------------------------------------


def _schema():
    from whoosh.fields import ID, STORED, TEXT, Schema

    from .search import ANALYZER, NAME_ANALYZER

    return Schema(
        key=ID(stored=True, unique=True),
        source=ID(stored=True),
        card_id=STORED(),
        ruling=STORED(),
        title=TEXT(analyzer=NAME_ANALYZER, field_boost=4.0, stored=True),
        card=TEXT(analyzer=NAME_ANALYZER, field_boost=1.0),  # a ruling's card title
        kind=TEXT(analyzer=ANALYZER, field_boost=1.5, phrase=False),  # type, subtypes, faction
        question=TEXT(analyzer=ANALYZER, field_boost=2.0, phrase=False),
        text=TEXT(analyzer=ANALYZER, phrase=False),
    )


SEARCH_FIELDS = ("title", "card", "kind", "question", "text")


def _ruling_order(rulings: list[Ruling]) -> list[Ruling]:
    """Newest first; a file's order kept among rulings of the same date."""
    return sorted(rulings, key=lambda r: (r.date_update or "", -r.position), reverse=True)


def _build_index(data: CardData, path: Path) -> None:
    from whoosh.index import create_in

    ix = create_in(str(path), _schema())
    writer = ix.writer()
    by_card: dict[str, list[Ruling]] = {}
    for r in data.rulings:
        by_card.setdefault(r.card_id, []).append(r)
    for card in data.cards.values():
        kind = " ".join(
            [
                data.card_types.get(card.card_type_id, card.card_type_id).name
                if card.card_type_id in data.card_types
                else card.card_type_id,
                *(data.card_subtypes[s].name if s in data.card_subtypes else s for s in card.subtypes),
                data.factions[card.faction_id].name if card.faction_id in data.factions else card.faction_id,
            ]
        )
        writer.add_document(
            key=f"card:{card.id}",
            source="cards",
            card_id=card.id,
            title=card.title,
            kind=kind,
            text=card.stripped_text or plain_text(card.text),
        )
        for i, r in enumerate(_ruling_order(by_card.get(card.id, []))):
            rt = ruling_text(r)
            writer.add_document(
                key=f"ruling:{card.id}:{i}",
                source="rulings",
                card_id=card.id,
                ruling=i,
                card=card.title,
                question=rt.question or "",
                text=rt.answer or rt.text or "",
            )
    writer.commit()


# ----------------------------------------------------------------------------------------------
# Reading
# ----------------------------------------------------------------------------------------------

_HEADING = re.compile(r"\A\s*#+\s*([^\n]*)\n?")


# Markdown emphasis in rulings ("*Jesminder*'s ability", "**AI**"): words between one or two
# asterisks (no asterisk inside, no blank at either end).
EMPHASIS = re.compile(r"(\*\*|\*)([^\s*](?:[^*]*?[^\s*])?)\1")
# The run timing structure the CR has now (6.9, Steps of a Run) is in every CR version built from
# ../shared/cr: each of the 104 timing steps (stable ``step_`` ids) of the oldest, 22.12, is in
# 26.03 (which adds checkpoint steps). 22.12 states no effective date: its name says December
# 2022. A ruling dated before then that NSG's rules team has not verified was made under older
# rules (FFG's Rules Reference, early NISEI documents): check it against the CR.
CURRENT_RUN_STRUCTURE_SINCE = "2022-12-01"
PRE_CR_NOTE = "pre-CR ruling: check against 6.9"


@dataclass(frozen=True)
class RulingText:
    """A ruling as plain words: where it comes from (its leading Markdown heading, such as
    "ANCUR UFAQ 21 [Michael Boggs]"), then question and answer, or a statement (`text`).
    ``follow_up``: a further question glued to the end of the answer in the source (its own
    paragraph, ending in "?"; the source gives no answer to it), split from the answer."""

    source: str | None
    question: str | None
    answer: str | None
    text: str | None
    follow_up: str | None = None


def _split_follow_up(answer: str | None) -> tuple[str | None, str | None]:
    """(answer, the question glued after it): the answer's last paragraphs ending in "?",
    when a paragraph that does not precedes them."""
    if not answer:
        return answer, None
    paras = [p.strip() for p in re.split(r"\n\s*\n", answer) if p.strip()]
    cut = len(paras)
    while cut > 1 and paras[cut - 1].rstrip("\"'”’)] ").endswith("?"):
        cut -= 1
    if cut == len(paras):
        return answer, None
    return "\n\n".join(paras[:cut]), "\n\n".join(paras[cut:])


def ruling_text(r: Ruling, marked: bool = False) -> RulingText:
    """The ruling's words without markup: links and tags reduced to their words, the source
    heading taken out, Markdown emphasis taken out (kept with ``marked``, for `EMPHASIS` to
    render), and a question glued to the answer split off (`RulingText.follow_up`)."""
    source = None
    parts: list[str | None] = []
    for raw in (r.question, r.answer, r.text_ruling):
        if not raw:
            parts.append(None)
            continue
        words = plain_text(raw)
        m = _HEADING.match(words)
        if m and source is None and m.group(1).strip():
            source = EMPHASIS.sub(r"\2", m.group(1)).strip()
            words = words[m.end() :]
        words = re.sub(r"(?m)^#+\s*", "", words)
        if not marked:
            words = EMPHASIS.sub(r"\2", words)
        parts.append(words.strip() or None)
    answer, follow_up = _split_follow_up(parts[1])
    return RulingText(source, parts[0], answer, parts[2], follow_up)


def first_sentence(text: str | None, limit: int = 200) -> str:
    """The first sentence of a ruling's answer ("No.", "Yes. ..." give their next one too), on
    one line, cut at a word within ``limit`` characters."""
    words = " ".join((text or "").split())
    m = re.match(r"(?:(?:yes|no)[.!,]\s+)?.*?(?<!\be\.g)(?<!\bi\.e)[.!?](?=\s|$)", words, re.IGNORECASE)
    found = m.group(0) if m else words
    if len(found) > limit:
        found = found[: limit - 1].rsplit(" ", 1)[0] + "…"
    return found


def era_note(r: Ruling) -> str | None:
    """`PRE_CR_NOTE` for a ruling dated before `CURRENT_RUN_STRUCTURE_SINCE` and not verified by
    NSG's rules team; None otherwise (and for an undated one)."""
    if r.verified or not r.date_update:
        return None
    return PRE_CR_NOTE if r.date_update < CURRENT_RUN_STRUCTURE_SINCE else None


# "rule 1.15.10b", "CR 1.4", "section 6.5.2", "Rules 1.3"
_CITED = re.compile(r"\b(?:rules?|cr|sections?|steps?)\s+(\d{1,2}(?:\.\d{1,3}){1,2}[a-z]?)\b", re.IGNORECASE)


CITED_NUMBER = _CITED  # group 1: the rule number


def cited_numbers(ruling: Ruling) -> list[str]:
    """CR rule numbers a ruling cites, in order, once each."""
    text = " ".join(t for t in (ruling.question, ruling.answer, ruling.text_ruling) if t)
    seen: dict[str, None] = {}
    for m in _CITED.finditer(plain_text(text)):
        seen.setdefault(m.group(1).lower(), None)
    return list(seen)


@dataclass
class _Loaded:
    cards: dict[str, Card]
    legality: dict[str, Legality]
    printings: dict[str, Printing]
    printings_of: dict[str, list[Printing]]
    rulings_of: dict[str, list[Ruling]]
    tables: dict[str, dict[str, dict]]
    names: dict[str, list[str]] = field(default_factory=dict)  # name_key -> card ids
    matcher: NameMatcher | None = None  # the one card-name matcher of this build
    standard_data: CardData | None = None  # what legality is computed from (None: an older build)


def _stale(meta: dict) -> str | None:
    """Why a build read from `meta` should be redone (an older format), or None."""
    if meta.get("format") == CARDS_FORMAT:
        return None
    return (
        f"built in an older format ({meta.get('format')}; this nrrules writes {CARDS_FORMAT}): "
        "Standard legality shows the ban list's id and the standing on the build's date; run "
        "`nrrules build --cards` with its source to rebuild it"
    )


def stale_build(build_dir: Path) -> str | None:
    """Why the card build in `build_dir` should be redone, or None (none built, or current)."""
    meta = _read_meta(Path(build_dir) / CARDS_DIR, OLDER_FORMATS)
    return None if meta is None else _stale(meta)


def _not_built(path: Path) -> str:
    """Why there is no card build to read at `path`."""
    try:
        found = json.loads((path / "meta.json").read_text()).get("format")
    except (OSError, ValueError, AttributeError):
        found = None
    if isinstance(found, str) and found.startswith("nrrules-cards/"):
        return (
            f"the card build is in format {found}, which this nrrules does not read ({CARDS_FORMAT}); "
            "rebuild it with `nrrules build --cards`"
        )
    return (
        "no card data is built here: run `nrrules build --cards ../shared/nrdb/v2` "
        "(a NetrunnerDB v2 folder) or `nrrules build --cards URL`"
    )


def _record_problem(
    raw: dict, cards: dict[str, Card], printings: dict[str, Printing], rulings: list[Ruling]
) -> str | None:
    """The first record of a loaded card build that fails its schema (`scraper.schema`, the one
    the build checked), as "card 'x': field: what", or None."""
    known = {
        name: {row.get("id") for row in raw.get(name) or () if isinstance(row, dict)}
        for name in ("card_types", "card_subtypes", "factions", "sides", "card_sets")
        if raw.get(name)
    }
    checks = [
        *(("card", c, schema.CARD, known) for c in cards.values()),
        *(("printing", p, schema.PRINTING, known) for p in printings.values()),
    ]
    for kind, record, fields, names in checks:
        found = schema.problem(record, fields, names)
        if found:
            return f"{schema.record_name(kind, record)}: {found}"
    for i, r in enumerate(rulings):
        found = schema.problem(r, schema.RULING) or (
            None if r.card_id in cards else f"card_id: {r.card_id[:100]!r} is not among the cards"
        )
        if found:
            return f"rulings[{i}] (of card {str(r.card_id)[:100]!r}): {found}"
    for p in printings.values():
        if p.card_id not in cards:
            return f"{schema.record_name('printing', p)}: card_id: {p.card_id[:100]!r} is not among the cards"
    return None


class CardStore:
    """Read access to one card build. Thread-safe; everything is loaded once."""

    def __init__(self, path: Path):
        self.path = Path(path)
        meta = _read_meta(self.path, (CARDS_FORMAT, *OLDER_FORMATS))
        if meta is None:
            raise CardsNotBuilt(_not_built(self.path))
        self.info = CardsInfo(
            source=meta.get("source", ""),
            source_hash=meta["source_hash"],
            built_at=meta.get("built_at", 0.0),
            cards=meta.get("cards", 0),
            printings=meta.get("printings", 0),
            rulings=meta.get("rulings", 0),
            standard=meta.get("standard") or {},
            notes=tuple(meta.get("notes") or ()),
            format=meta["format"],
            problem=_stale(meta),
        )
        if self.info.problem:
            log.warning("card build %s: %s", self.path, self.info.problem)
        self._lock = threading.Lock()
        self._standard: dict[str, tuple[dict[str, Legality], dict]] = {}
        self._meta = meta
        self._data = self._load()
        self._mentions: dict[tuple[str, str], dict[str, list[str]]] = {}
        self._keywords: dict[tuple[str, str], tuple[re.Pattern | None, dict[str, Keyword]]] = {}
        self._local = threading.local()
        self._index = None

    @classmethod
    def open(cls, build_dir: Path | str) -> CardStore:
        return cls(Path(build_dir) / CARDS_DIR)

    def _load(self) -> _Loaded:
        try:
            # a truncated or altered file or index is refused, never served (issue 38)
            check_build_dir(self.path, self._meta, "search/")
            raw = json.loads(check_build_file(self.path, "cards.json", self._meta).decode("utf-8"))
        except (ValueError, RecursionError) as exc:
            raise CardsNotBuilt(
                f"the card build is damaged ({exc}); rebuild it with `nrrules build --cards --force`"
            ) from None
        except OSError as exc:
            raise CardsNotBuilt(
                f"the card build cannot be read ({exc.strerror or type(exc).__name__}); rebuild it with "
                "`nrrules build --cards --force`"
            ) from None
        try:
            cards: dict[str, Card] = {}
            legality: dict[str, Legality] = {}
            for row in raw["cards"]:
                legality[row["id"]] = Legality(**row.pop("standard"))
                row["subtypes"] = tuple(row["subtypes"])
                cards[row["id"]] = Card(**row)
            printings = {p["id"]: Printing(**p) for p in raw["printings"]}
            rulings = [Ruling(**r) for r in raw["rulings"]]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise CardsNotBuilt(
                f"the card build is damaged ({type(exc).__name__}); rebuild it with `nrrules build --cards`"
            ) from None
        found = _record_problem(raw, cards, printings, rulings)
        if found:  # a record that passes no build's schema: refused as a damaged file is
            raise CardsNotBuilt(
                f"the card build is damaged (cards.json: {found}); rebuild it with `nrrules build --cards --force`"
            )
        printings_of: dict[str, list[Printing]] = {}
        for p in printings.values():
            printings_of.setdefault(p.card_id, []).append(p)
        by_card: dict[str, list[Ruling]] = {}
        for r in rulings:
            by_card.setdefault(r.card_id, []).append(r)
        names: dict[str, list[str]] = {}
        for c in cards.values():
            for key in {name_key(c.title), name_key(c.stripped_title)}:
                names.setdefault(key, []).append(c.id)
        tables = {k: {row["id"]: row for row in raw.get(k, [])} for k in _TABLES}
        return _Loaded(
            cards=cards,
            legality=legality,
            printings=printings,
            printings_of=printings_of,
            rulings_of={k: _ruling_order(v) for k, v in by_card.items()},
            tables=tables,
            names=names,
            matcher=NameMatcher(cards),
            standard_data=_legality_data(raw, cards, printings),
        )

    # ----- lookup ---------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._data.cards)

    def cards(self) -> list[Card]:
        return list(self._data.cards.values())

    def card(self, card_id: str) -> Card | None:
        return self._data.cards.get(card_id)

    def by_code(self, code: str) -> Card | None:
        p = self._data.printings.get(str(code).strip())
        return self._data.cards.get(p.card_id) if p else None

    def printings(self, card_id: str) -> list[Printing]:
        return self._data.printings_of.get(card_id, [])

    def table(self, name: str) -> dict[str, dict]:
        """A small table by NetrunnerDB resource name: card_types, factions, card_sets ..."""
        return self._data.tables.get(name, {})

    def standard(self, today: str | None = None) -> tuple[dict[str, Legality], dict]:
        """Every card's Standard legality on `today` (default: the current UTC date) and that
        snapshot's names and dates: computed when asked, so a ban list or rotation that takes
        effect after the build counts from its date on (memoised per date). A build made
        before the inputs were stored answers what it computed at build time."""
        today = today or today_utc()
        data = self._data.standard_data
        if data is None:
            return self._data.legality, dict(self.info.standard)
        with self._lock:
            hit = self._standard.get(today)
            if hit is None:
                hit = standard_legality(data, today)
                self._standard = {today: hit}  # only the current date is kept
            return hit

    def legality(self, card_id: str, today: str | None = None) -> Legality:
        return self.standard(today)[0].get(card_id) or Legality(STANDARD, False, "unknown")

    def rulings(self, card_id: str) -> list[Ruling]:
        """Newest first."""
        return self._data.rulings_of.get(card_id, [])

    def find(self, query: str, limit: int = 10) -> list[Card]:
        """Cards by id, NetrunnerDB code or name (`match`)."""
        return [self._data.cards[m.card_id] for m in self.match(query, limit)]

    def match(self, query: str, limit: int = 10, typos: bool = True) -> list[NameMatch]:
        """The cards a reference means, best first: its card id or NetrunnerDB code, else its
        name forgiving case, accents, punctuation, plurals, parts of identities' names and
        typos (`NameMatcher.match`, the one card-name matcher)."""
        query = (query or "").strip()[:MAX_QUERY]
        if not query:
            return []
        exact = self.card(query) or self.by_code(query)
        if exact is not None:
            return [NameMatch(exact.id, EXACT_SCORE, "exact")]
        return self.matcher.match(query, limit)

    @property
    def matcher(self) -> NameMatcher:
        if self._data.matcher is None:
            self._data.matcher = NameMatcher(self._data.cards)
        return self._data.matcher

    # ----- the rules -------------------------------------------------------------------------
    def mentions(self, doc: Document) -> dict[str, list[str]]:
        """card id -> ids of the rules of `doc` that mention the card (document order).

        A mention resolves through its NetrunnerDB code, or by exact name when the document
        gives no code."""
        key = (doc.version, doc.source_hash)
        found = self._mentions.get(key)
        if found is None:
            found = {}
            for node in doc.nodes:
                for m in node.cards:
                    card = (self.by_code(m.code) if m.code else None) or self._exact(m.name)
                    if card is None:
                        continue
                    target = node.parent if node.kind == "example" and node.parent else node.id
                    rules = found.setdefault(card.id, [])
                    if target not in rules:
                        rules.append(target)
            with self._lock:
                found = self._mentions.setdefault(key, found)
        return found

    def keywords(self, doc: Document, graph) -> tuple[re.Pattern | None, dict[str, Keyword]]:
        """`keyword_table` of a CR version, made once per loaded document."""
        key = (doc.version, doc.source_hash)
        found = self._keywords.get(key)
        if found is None:
            found = keyword_table(doc, graph)
            with self._lock:
                found = self._keywords.setdefault(key, found)
        return found

    def unresolved_mentions(self, doc: Document) -> list[tuple[str, str, str | None]]:
        """(node id, name, code) of every card mention that does not resolve to a card."""
        return [
            (n.id, m.name, m.code)
            for n in doc.nodes
            for m in n.cards
            if not ((self.by_code(m.code) if m.code else None) or self._exact(m.name))
        ]

    def _exact(self, name: str) -> Card | None:
        """The one card a name given without a code means: its whole name, or the start of
        exactly one name ("Jesminder Sareen" for "Jesminder Sareen: Girl Behind the Curtain")."""
        key = name_key(name)
        ids = self._data.names.get(key, [])
        if not ids and len(key) >= 5:
            ids = list(dict.fromkeys(i for k, v in self._data.names.items() if k.startswith(key) for i in v))
        return self._data.cards[ids[0]] if len(ids) == 1 else None

    def named(self, query: str, limit: int, typos: bool = True) -> list[NameMatch]:
        """The cards a query names by name (`NameMatcher.match`): whole names (and their parts,
        plurals and typos) at `EXACT_SCORE`, then names starting with it from `PREFIX_SCORE`
        down."""
        return self.matcher.match(query, limit, typos)

    def cited_rules(self, card_id: str, doc: Document) -> list[tuple[str, str]]:
        """(number, rule id) for every CR number the card's rulings cite that `doc` has."""
        from .lookup import lookup

        out: dict[str, str] = {}
        for r in self.rulings(card_id):
            for number in cited_numbers(r):
                if number in out:
                    continue
                result = lookup(doc, number)
                if result.nodes:
                    out[number] = result.nodes[0].id
        return list(out.items())

    # ----- search ----------------------------------------------------------------------------
    def _searcher(self):
        s = getattr(self._local, "searcher", None)
        if s is None:
            with self._lock:
                if self._index is None:
                    from .whoosh_open import open_index

                    self._index = open_index(self.path / "search")
            s = self._index.searcher()
            self._local.searcher = s
        return s

    def search(
        self, query: str, sources: tuple[str, ...] = ("cards", "rulings"), limit: int = 10
    ) -> list[CardHit]:
        """Cards by name and text, rulings by question and answer: a card whose whole name is
        the query first, then names starting with it, then cards and rulings by their words,
        ranked as the rules are (`rank`: BM25F from per-word score lists). Never raises on a
        query."""
        query = " ".join((query or "").split())[:MAX_QUERY]
        try:
            limit = max(1, min(int(limit), MAX_LIMIT))
        except (TypeError, ValueError):
            limit = 10
        wanted = tuple(s for s in sources if s in ("cards", "rulings"))
        if not query or not wanted:
            return []
        hits: list[CardHit] = []
        # A card whose whole name is the query comes first (case, accents, punctuation
        # forgiven), then cards whose name starts with it (shortest first: as-you-type).
        named = self.named(query, limit) if "cards" in wanted else []
        for m in named:
            card = self._data.cards[m.card_id]
            hits.append(
                CardHit(
                    "cards", m.card_id, card.title, m.score, _snippet(card.stripped_text, query), how=m.how
                )
            )
        ranked, _ = self.rank(query, wanted, limit, skip=frozenset(m.card_id for m in named))
        # One list: the scores of both sources come from the same index and scorer.
        by_words = sorted((r for source in wanted for r in ranked.get(source, [])), key=lambda r: -r.score)
        for r in by_words[: max(0, limit - len(hits))]:
            card = self._data.cards[r.card_id]
            if r.source == "cards":
                hits.append(
                    CardHit("cards", r.card_id, card.title, r.score, _snippet(card.stripped_text, query))
                )
            else:
                rt = ruling_text(self.rulings(r.card_id)[r.ruling])
                text = rt.question or rt.text or ""
                hits.append(
                    CardHit("rulings", r.card_id, card.title, r.score, _snippet(text, query), r.ruling)
                )
        return hits[:limit]

    def rank(
        self,
        query: str,
        sources: tuple[str, ...] = ("cards", "rulings"),
        limit: int = 10,
        skip: frozenset = frozenset(),
    ) -> tuple[dict[str, list[CardRank]], float]:
        """Cards and rulings by the words of a query, as the rules index ranks rules: each word
        as each field analyses it, stop words out, BM25F summed over fields (from per-word
        score lists, `rules_index.impact`), at most ``limit`` per source, cards in ``skip``
        left out. Also the best score the query could reach here (`search.ideal_score`), so
        a caller can put these scores beside another index's. Never raises on a query."""
        from .impact import top
        from .search import _STOP, ideal_score

        wanted = tuple(s for s in sources if s in ("cards", "rulings"))
        out: dict[str, list[CardRank]] = {s: [] for s in wanted}
        query = " ".join((query or "").split())[:MAX_QUERY]
        if not query or not wanted:
            return out, 0.0
        impacts, schema, docs, _ = self._ranking()
        clauses = []
        for fname in SEARCH_FIELDS:
            for token in schema[fname].analyzer(query):
                if token.text not in _STOP and impacts.idf(fname, token.text):
                    clauses.append((fname, token.text, 1.0))
        clauses = list(dict.fromkeys(clauses))
        if not clauses:
            return out, 0.0
        ideal = ideal_score(impacts, clauses)
        # Per source, the best few (enough to fill ``limit`` after the cards skipped): a
        # partial selection, not a sort of every card a common word matches.
        scores = impacts.scores(clauses)
        is_card = self._ranking()[3]
        per_source = {}
        if "cards" in out:
            per_source["cards"] = {d: v for d, v in scores.items() if is_card[d]}
        if "rulings" in out:
            per_source["rulings"] = {d: v for d, v in scores.items() if not is_card[d]}
        for source, scores in per_source.items():
            found = out[source]
            for docnum, score in top(scores, limit + (len(skip) if source == "cards" else 0)):
                _, cid, ruling = docs[docnum]
                if (source == "cards" and cid in skip) or cid not in self._data.cards:
                    continue
                found.append(CardRank(source, cid, ruling, score))
                if len(found) >= limit:
                    break
        return out, ideal

    def _ranking(self):
        """(score lists, schema, document number -> (source, card id, ruling index), document
        number -> 1 for a card, 0 for a ruling), built once."""
        ranking = getattr(self, "_ranking_parts", None)
        if ranking is None:
            searcher = self._searcher()  # takes the store's lock: before it is held here
            with self._lock:
                ranking = getattr(self, "_ranking_parts", None)
                if ranking is None:
                    from .impact import Impacts

                    reader = searcher.reader()
                    docs = [
                        (f["source"], f["card_id"], f.get("ruling")) if f else ("", "", None)
                        for f in (
                            reader.stored_fields(d) if not reader.is_deleted(d) else None
                            for d in range(reader.doc_count_all())
                        )
                    ]
                    impacts = Impacts(lambda: self._searcher().reader(), B=CARD_BM25_B, K1=CARD_BM25_K1)
                    is_card = bytes(source == "cards" for source, _, _ in docs)
                    ranking = self._ranking_parts = (impacts, searcher.schema, docs, is_card)
        return ranking


@dataclass(frozen=True)
class CardRank:
    """A card or ruling ranked by `CardStore.rank` (``ruling``: its index among the card's
    rulings, newest first; None for a card)."""

    source: str
    card_id: str
    ruling: int | None
    score: float


_TABLES = ("card_types", "card_subtypes", "factions", "sides", "card_sets")


# ----------------------------------------------------------------------------------------------
# Keywords: the CR terms card text and rulings use, and the rules that define them
# ----------------------------------------------------------------------------------------------

# Terms the CR defines that are also everyday words in card text: linking every "take", "pay",
# "run" or "server" would bury the links that help ("bypass", "expose", "host", "trace").
_GENERIC_TERMS = frozenset(
    """ability action active bank card click condition controller credit depends destination draw
    drawing effect empty find gains hand independent instances instruction instructions load
    location look looks lose loses movement name object open owner pay pending play playing
    positions public relevant root run search secret server source spend spends take takes target
    tokens turn using""".split()
)
_SUBTYPE_SPAN = re.compile(r'<span class="subtype">(.*?)</span>', re.S)


@dataclass(frozen=True)
class Keyword:
    """A CR term (or card subtype) and the rule that defines (or first names) it."""

    term: str
    rule_id: str
    number: str | None
    kind: str  # "term" or "subtype"
    bold_only: bool = False  # link it in card text only where printed in bold (2.16.2)


def keyword_table(doc: Document, graph) -> tuple[re.Pattern | None, dict[str, Keyword]]:
    """(one regex matching every keyword in card text, lowercased keyword -> Keyword).

    Terms are those the CR marks as defined (`RuleGraph` term nodes), each linked to the
    first rule (document order) that defines it; subtypes are those the CR prints as
    subtypes, linked to the first rule that names them (an example's rule for an example).
    The regex takes the longest keyword first ("recurring credits" before "credit") and
    plural or past forms ("bypassed", "exposes")."""
    order = {n.id: i for i, n in enumerate(doc.nodes)}
    table: dict[str, Keyword] = {}
    for key, data in graph.g.nodes(data=True):
        if data.get("type") != "term":
            continue
        term = data["term"].strip().lower()
        if not term or term in _GENERIC_TERMS or len(term) < 3:
            continue
        defining = [s for s, _, k in graph.g.in_edges(key, keys=True) if k == "defines" and s in order]
        if not defining:
            continue
        rule_id = min(defining, key=order.__getitem__)
        node = doc.node(rule_id)
        table[term] = Keyword(term, rule_id, node.number if node else None, "term")
    # Subtypes: the first rule (not an example) that prints the subtype, else the CR's section
    # on subtypes, which says what every subtype is.
    section = next((n for n in doc.nodes if (n.title or "").strip().lower() == "subtypes"), None)
    for node in doc.nodes:
        for m in _SUBTYPE_SPAN.finditer(node.html or ""):
            name = " ".join(re.sub(r"<[^>]+>", "", m.group(1)).split()).lower()
            known = table.get(name)
            if not name or (known is not None and (known.kind == "term" or node.kind == "example")):
                continue
            if known is not None and known.rule_id != (section.id if section else None):
                continue
            target = section if node.kind == "example" else node
            if target is not None:
                table[name] = Keyword(name, target.id, target.number, "subtype")
    # Subtypes the CR names only in its lists of subtypes (2.16.7a-j), NetrunnerDB's breaker
    # subtypes among them ("The program subtypes are AI, ..., Decoder, ..., Fracter, ..., Killer").
    # The CR has no rule saying what a fracter or a killer is: they link to the list naming them
    # (to the whole list, 2.16.7, when several card types share the name). In card text only where
    # printed in bold, as card text references subtypes (2.16.2): "Run", "Link" or "Job" are
    # everyday words too.
    listed: dict[str, list[Node]] = {}
    for node, names in subtype_lists(doc).values():
        for name in names:
            listed.setdefault(name, []).append(node)
    parent = next((n for n in doc.nodes if n.id == "rule_subtypes_list"), None)
    for name, nodes in listed.items():
        if name in table:
            continue
        target = nodes[0] if len(nodes) == 1 or parent is None else parent
        table[name] = Keyword(name, target.id, target.number, "subtype", bold_only=True)
    if not table:
        return None, table
    words = sorted(table, key=len, reverse=True)
    alternatives = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in words)
    # not inside a symbol ("[subroutine]"); "Trace[3]" still links "Trace"
    pattern = re.compile(rf"(?<![\w\[-])({alternatives})(?:s|es|d|ed)?(?![\w\]-])", re.IGNORECASE)
    return pattern, table


_SUBTYPE_LIST = re.compile(r"The ([a-z]+) subtypes are (.+?)\.?$", re.IGNORECASE)


def subtype_lists(doc: Document) -> dict[str, tuple[Node, list[str]]]:
    """The CR's lists of subtypes by card type (2.16.7a-j): {"program": (rule, ["ai", ...])}."""
    out: dict[str, tuple[Node, list[str]]] = {}
    for node in doc.children("rule_subtypes_list") if doc.node("rule_subtypes_list") else ():
        m = _SUBTYPE_LIST.match(" ".join((node.text or "").split()))
        if m:
            names = re.split(r",\s*(?:and\s+)?|\s+and\s+", m.group(2))
            out[m.group(1).lower()] = (node, [n.strip().lower() for n in names if n.strip()])
    return out


def subtype_rule(doc: Document, table: dict[str, Keyword], name: str, card_type: str) -> Keyword | None:
    """The rule a card's subtype links to on its card page: the CR's list of that card type's
    subtypes when it names it (a program's "Fracter": 2.16.7i), else the keyword table's."""
    key = name.strip().lower()
    kind = "identity" if card_type.endswith("identity") else card_type
    found = subtype_lists(doc).get(kind)
    if found is not None and key in found[1]:
        return Keyword(key, found[0].id, found[0].number, "subtype")
    return table.get(key)


def find_keywords(text: str, pattern: re.Pattern | None, table: dict[str, Keyword], bold: bool = False):
    """(start, end, Keyword) of the first use of each keyword in `text` (`bold`: the text is
    printed in bold, where the subtypes only the CR's lists name are linked)."""
    if pattern is None or not text:
        return []
    seen: set[str] = set()
    out = []
    for m in pattern.finditer(text):
        key = " ".join(m.group(1).split()).lower()
        kw = table.get(key)
        if kw is None or key in seen or (kw.bold_only and not bold):
            continue
        seen.add(key)
        out.append((m.start(), m.end(), kw))
    return out


def _snippet(text: str, query: str, width: int = 160) -> str:
    """Plain text of at most about ``width`` characters around the first query word found, cut
    at word boundaries, with "…" where text was left out on either side."""
    text = " ".join((text or "").split())
    if len(text) <= width:
        return text
    low = text.lower()
    found = [i for i in (low.find(w) for w in re.findall(r"\w{3,}", query.lower())) if i >= 0]
    from .search import word_window

    start, end = word_window(text, min(found, default=0), width, width // 3)
    return ("… " if start else "") + text[start:end].rstrip(",;:") + (" …" if end < len(text) else "")


def open_cards(build_dir: Path | str) -> CardStore:
    return CardStore.open(build_dir)


__all__ = [
    "CARDS_DIR",
    "CardHit",
    "CardStore",
    "CardsBuildResult",
    "CardsInfo",
    "CardsNotBuilt",
    "Keyword",
    "find_keywords",
    "keyword_table",
    "subtype_lists",
    "subtype_rule",
    "Legality",
    "ScrapeError",
    "build_cards",
    "cited_numbers",
    "name_key",
    "open_cards",
    "stale_build",
    "standard_legality",
]
