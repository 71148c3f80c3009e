"""Decisions, typed: a decision id is parsed once at the edge (`Decision.from_id`, in the style of
python-chess's ``Move.from_uci``) and handlers read its fields, never slice the string.

Ids name cards, not list positions, so an id keeps meaning the same card when other cards move
(a program trashed mid-run, a card played from the hand): ``use:corroder.0`` is the first ability
of the installed Corroder. A card reference is the card name's slug (`slug`: "Mr. Li" ->
``mr-li``, URL-safe); the second and later cards of the same slug in one zone are ``mr-li_2``,
``mr-li_3`` (a slug made only of digits is always written ``_1``, so a reference is never a bare
number, which is a position).

The positional ids of earlier sessions (``use:2.0``, ``play:1``, ``rez:hq.root.0``, ``hq:1``,
``trash:programs.0``, ...) still parse (`Decision.pos` holds the position); the session maps them to the card-named id offered at
that point (see `session._check_legal`), so saved sessions and URL tokens replay unchanged.

Grammar (``CARD`` a card reference, ``S`` a server name, ``N`` an integer)::

    pass | rez | jack_out | continue | pay_trash | no_trash | steal | decline_steal | credit | draw
      | remove_tag | purge | pay | dont_pay | resolved | done
    spend:N   break:N   sub:N                     (credits; subroutine index on the encountered ice)
    option:N   draw:N   hq:CARD   dont_trash      (an effect's choices: option N, draw N cards,
                                                   trash the HQ card CARD)
    trash:ZONE.CARD   grip:ZONE.CARD              (an installed card an effect chooses; ZONE:
                                                   programs | hardware | resources | facedown)
    run:S   score:S   advance:S
    rez:S.content   rez:S.root.CARD
    derez:S.content   derez:S.ice.CARD   derez:S.root.CARD   (expose: the same; an effect's choice)
    use:CARD.N                                    (ability N of an installed program)
    use:hardware.CARD.N   use:resources.CARD.N    (a `text` ability of installed hardware / a resource)
    prevent:ZONE.CARD.N                           (ZONE: programs | hardware | resources)
    prevent:S.content.N   prevent:S.root.CARD.N   (a rezzed Corp card's expose prevention)
    trigger:ZONE.CARD.N   trigger:S.ice.CARD.N   trigger:S.root.CARD.N   trigger:S.content.N
    trigger:score_area.CARD.N                     (an ability of an agenda in the Corp's score area)
    trigger:corp_identity.CARD.N   ability:corp_identity.CARD.N   (the Corp identity's ability N)
    trigger:runner_identity.CARD.N                (the Runner identity's conditional ability N)
    trigger:play_area.CARD.0                      (a run event's "If successful" ability, 6.7.4)
    trigger:accessed.CARD.N                       (the accessed card's own: its on_access, or the
                                                   stolen agenda's "when stolen" ability N)
    decline:...                                   (the same forms as trigger:: decline an optional
                                                   pending ability, 9.6.9a)
    ability:S.ice.CARD.N   ability:S.root.CARD.N   ability:S.content.N   (a Corp card's paid ability)
    interrupt:ZONE.CARD.N   interrupt:S.ice.CARD.N   interrupt:S.root.CARD.N   interrupt:S.content.N
                                                  (a trace interrupt ability, 9.9.6d)
    trash_resource:CARD   trash:CARD              (an installed resource; a program to trash)
    play:CARD   discard:CARD   install:CARD   install:CARD@S   install:CARD@new   (from the hand)
    access:hq | access:rd | access:content | access:root.CARD | access:archives.CARD
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from memo import memo

BARE = frozenset(
    (
        "pass",
        "rez",
        "jack_out",
        "continue",
        "pay_trash",
        "no_trash",
        "steal",
        "decline_steal",
        "credit",
        "draw",
        "remove_tag",
        "purge",
        "pay",
        "dont_pay",
        "resolved",
        "done",
        "dont_trash",
    )
)
RIG_ZONES = ("programs", "hardware", "resources")
INSTALLED = re.compile(r"(programs|hardware|resources|facedown)\.([0-9a-z][0-9a-z_-]*)\Z")
_SERVER = re.compile(r"(?:hq|rd|archives|remote[1-9][0-9]*)\Z")
_INT = re.compile(r"(?:0|[1-9][0-9]{0,5})\Z")


@dataclass(frozen=True, slots=True, eq=False)
class Decision:
    """One decision, parsed. `kind` is the id's prefix ("use", "rez", "pass", ...); the other
    fields are set where the kind has them. Comparing a Decision with a string raises TypeError
    (compare `d.kind` or `d.id`): a handler written for string ids fails loudly, not silently."""

    kind: str
    server: str | None = None  # run/score/advance/rez/install target; a Corp card's server
    zone: str | None = None  # "root", "content", "ice", a rig zone, "hq"/"rd"/"archives" (access)
    card: str | None = None  # a card reference (`card_ref`: "corroder", "corroder_2")
    index: int | None = None  # subroutine (break, sub), ability (use, prevent), trigger, option...
    amount: int | None = None  # credits (spend), cards (draw)
    pos: int | None = None  # a list position, only in the positional ids of older sessions
    choice: bool = False  # an installed card chosen inside an effect (`trash:ZONE.CARD`, `grip:...`)
    _text: str | None = field(default=None, init=False, repr=False, compare=False)  # `id`, once made

    @classmethod
    def from_id(cls, text: Any) -> Decision:
        """Parse a decision id; raises ValueError naming what is wrong."""
        d = _parse(text) if isinstance(text, str) else None
        if d is None:
            raise ValueError(f"not a decision id: {text!r}")
        return d

    def _key(self) -> tuple:
        return (self.kind, self.server, self.zone, self.card, self.index, self.amount, self.pos, self.choice)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            raise TypeError(f"compare Decision.kind or Decision.id with {other!r}, not the Decision")
        if not isinstance(other, Decision):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    @property
    def legacy(self) -> bool:
        """Written in the positional form of older sessions."""
        return self.pos is not None

    @property
    def id(self) -> str:
        text = self._text
        if text is None:  # formatted once: parsed decisions are shared (`_parse` is memoised)
            text = _format(self)
            object.__setattr__(self, "_text", text)
        return text

    def named(self, cards: list[dict]) -> Decision | None:
        """This positional decision with the card at its position named instead (`cards`: the
        list the position counts in); None when the position is out of range."""
        if self.pos is None or self.pos >= len(cards):
            return None
        return Decision(
            self.kind,
            self.server,
            self.zone,
            card_ref(cards, self.pos),
            self.index,
            self.amount,
            None,
            self.choice,
        )


@memo("engine.decision_ids")
def _parse(text: str) -> Decision | None:
    if text in BARE:
        return Decision(text)
    kind, sep, rest = text.partition(":")
    if not sep or not rest:
        return None
    if kind == "resolved":  # resolved by hand, with the judge's changes to the state
        adj = parse_adjustments(rest)
        return None if adj is None else Decision(kind, card=format_adjustments(adj))
    if kind == "hq":  # an HQ card an effect chooses (`hq:N` in older sessions)
        return _card_or_pos(Decision(kind, zone="hand"), rest)
    if kind in ("spend", "break", "sub", "option", "draw"):
        if not _INT.match(rest):
            return None
        if kind in ("spend", "draw"):
            return Decision(kind, amount=int(rest))
        return Decision(kind, index=int(rest))
    m = INSTALLED.match(rest) if kind in ("trash", "grip") else None
    if m:  # an installed Runner card chosen by an effect, in the choice it is offered in
        return _card_or_pos(Decision(kind, zone=m.group(1), choice=True), m.group(2))
    if kind in ("run", "score", "advance"):
        return Decision(kind, server=rest) if _SERVER.match(rest) else None
    if kind in ("derez", "expose"):  # an installed Corp card an effect chooses
        server, _, where = rest.partition(".")
        if not _SERVER.match(server):
            return None
        if where == "content":
            return Decision(kind, server=server, zone="content")
        zone, _, ref = where.partition(".")
        if zone not in ("ice", "root") or not ref or _INT.match(ref):
            return None
        return Decision(kind, server=server, zone=zone, card=ref)
    if kind == "rez":
        server, _, where = rest.partition(".")
        if not _SERVER.match(server):
            return None
        if where == "content":
            return Decision(kind, server=server, zone="content")
        zone, _, ref = where.partition(".")
        if zone != "root" or not ref:
            return None
        return _card_or_pos(Decision(kind, server=server, zone="root"), ref)
    if kind == "use":
        ref, _, n = rest.rpartition(".")
        if not ref or not _INT.match(n):
            return None
        zone, dot, card = ref.partition(".")
        if dot:  # a text ability on installed hardware or a resource: use:hardware.box.0
            if zone not in ("hardware", "resources") or not card:
                return None
            return _card_or_pos(Decision(kind, zone=zone, index=int(n)), card)
        return _card_or_pos(Decision(kind, zone="programs", index=int(n)), ref)
    if kind in ("prevent", "trigger", "decline", "ability", "interrupt"):
        head, _, tail = rest.partition(".")
        ref, _, n = tail.rpartition(".")
        if not _INT.match(n):
            return None
        if head == "runner_identity" and kind in ("trigger", "decline"):
            return _card_or_pos(Decision(kind, zone=head, index=int(n)), ref) if ref else None
        if head == "corp_identity" and kind in ("trigger", "decline", "ability", "interrupt", "prevent"):
            return _card_or_pos(Decision(kind, zone=head, index=int(n)), ref) if ref else None
        if (
            head in RIG_ZONES
            or (head in ("score_area", "accessed", "play_area") and kind in ("trigger", "decline"))
        ) and kind != "ability":
            return _card_or_pos(Decision(kind, zone=head, index=int(n)), ref) if ref else None
        if not _SERVER.match(head):
            return None
        if ref == "content":
            return Decision(kind, server=head, zone="content", index=int(n))
        zone, _, ref = ref.partition(".")
        if zone not in ("ice", "root") or not ref:
            return None
        return _card_or_pos(Decision(kind, server=head, zone=zone, index=int(n)), ref)
    if kind in ("trash_resource", "trash"):
        zone = "resources" if kind == "trash_resource" else "programs"
        return _card_or_pos(Decision(kind, zone=zone), rest)
    if kind in ("play", "discard"):
        return _card_or_pos(Decision(kind, zone="hand"), rest)
    if kind == "install":
        ref, at, where = rest.rpartition("@")
        zone = "hand"
        if (ref if at else rest).startswith("archives."):  # a card an effect installs from Archives
            zone = "discard"
            ref, rest = ref[len("archives.") :], rest[len("archives.") :]
            if not (ref if at else rest):
                return None
        if at and (where == "new" or _SERVER.match(where)) and ref:
            return _card_or_pos(Decision(kind, zone=zone, server=where), ref)
        return _card_or_pos(Decision(kind, zone=zone), rest)
    if kind == "access":
        if rest in ("hq", "rd", "content"):
            return Decision(kind, zone=rest)
        zone, _, ref = rest.partition(".")
        if zone not in ("root", "archives") or not ref:
            return None
        return _card_or_pos(Decision(kind, zone=zone), ref)
    return None


# What a judge may set when resolving an ability by hand (`resolved:runner.credits=3,end_run`):
# player -> the fields, each 0..999; `end_run` ends the run in progress.
ADJUSTABLE = {
    "runner": ("credits", "clicks", "tags", "core_damage"),
    "corp": ("credits", "clicks", "bad_publicity"),
}
MAX_ADJUSTMENTS = 10
_ADJ = re.compile(r"(runner|corp)\.([a-z_]+)=(0|[1-9][0-9]{0,2})\Z")


def parse_adjustments(text: str) -> list[tuple[str, str, int]] | None:
    """`runner.credits=3,corp.bad_publicity=1,end_run` -> [("runner", "credits", 3), ...,
    ("run", "end", 0)]; None when any part is not one of `ADJUSTABLE` (or repeats one)."""
    items = text.split(",")
    if not items or len(items) > MAX_ADJUSTMENTS:
        return None
    out: list[tuple[str, str, int]] = []
    seen: set[tuple[str, str]] = set()
    for item in items:
        if item == "end_run":
            key = ("run", "end")
            value = 0
        else:
            m = _ADJ.match(item)
            if not m or m.group(2) not in ADJUSTABLE[m.group(1)]:
                return None
            key, value = (m.group(1), m.group(2)), int(m.group(3))
        if key in seen:
            return None
        seen.add(key)
        out.append((*key, value))
    return out


def format_adjustments(adj: list[tuple[str, str, int]]) -> str:
    return ",".join("end_run" if side == "run" else f"{side}.{field}={n}" for side, field, n in adj)


def _card_or_pos(d: Decision, ref: str) -> Decision:
    if _INT.match(ref):
        return Decision(d.kind, d.server, d.zone, None, d.index, d.amount, int(ref), d.choice)
    return Decision(d.kind, d.server, d.zone, ref, d.index, d.amount, None, d.choice)


_NO_FIELDS = (None, None, None, None, None, None, False)  # a bare decision's other fields


def _format(d: Decision) -> str:
    k = d.kind
    if k in BARE and d._key()[1:] == _NO_FIELDS:
        return k
    if k == "resolved":
        return f"resolved:{d.card}"
    ref = str(d.pos) if d.pos is not None else d.card
    if k in ("spend", "draw"):
        return f"{k}:{d.amount}"
    if k in ("break", "sub", "option"):
        return f"{k}:{d.index}"
    if d.choice:
        return f"{k}:{d.zone}.{ref}"
    if k in ("run", "score", "advance"):
        return f"{k}:{d.server}"
    if k == "rez":
        return f"rez:{d.server}.content" if d.zone == "content" else f"rez:{d.server}.root.{ref}"
    if k in ("derez", "expose"):
        return f"{k}:{d.server}.content" if d.zone == "content" else f"{k}:{d.server}.{d.zone}.{ref}"
    if k == "use":
        return f"use:{ref}.{d.index}" if d.zone == "programs" else f"use:{d.zone}.{ref}.{d.index}"
    if k in ("prevent", "trigger", "decline", "ability", "interrupt"):
        if d.server is None:
            return f"{k}:{d.zone}.{ref}.{d.index}"
        if d.zone == "content":
            return f"{k}:{d.server}.content.{d.index}"
        return f"{k}:{d.server}.{d.zone}.{ref}.{d.index}"
    if k == "install":
        where = "archives." if d.zone == "discard" else ""
        return f"install:{where}{ref}" + (f"@{d.server}" if d.server else "")
    if k == "access":
        return f"access:{d.zone}" if d.zone in ("hq", "rd", "content") else f"access:{d.zone}.{ref}"
    return f"{k}:{ref}"


# ----- card references --------------------------------------------------------------------------


@memo("engine.card_slugs")
def slug(name: str) -> str:
    """A card name as it appears in ids: ASCII lowercase letters and digits, words joined by "-"
    ("Mr. Li" -> "mr-li"); URL-safe, with no "." or "_" (the separators)."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^0-9a-z]+", "-", ascii_name.lower()).strip("-") or "card"


def card_ref(cards: list[dict], i: int) -> str:
    """The stable reference of ``cards[i]``: its name's slug, with "_n" for the n-th card of that
    slug in `cards` (and "_1" for a slug of digits only, so that it never reads as a position)."""
    key = slug(cards[i]["name"])
    n = 1
    for c in cards[:i]:
        if slug(c["name"]) == key:
            n += 1
    return f"{key}_{n}" if n > 1 or key.isdigit() else key


def card_refs(cards: list[dict]) -> tuple[str, ...]:
    """`card_ref` of every card in `cards`, in one pass."""
    return _refs(tuple([c["name"] for c in cards]))


@memo("engine.card_refs")
def _refs(names: tuple[str, ...]) -> tuple[str, ...]:
    seen: dict[str, int] = {}
    out = []
    for name in names:
        key = slug(name)
        n = seen[key] = seen.get(key, 0) + 1
        out.append(f"{key}_{n}" if n > 1 or key.isdigit() else key)
    return tuple(out)


def find_card(cards: list[dict], ref: str | None) -> int | None:
    """The position of the card `ref` names in `cards` (None when none does)."""
    if ref is None:
        return None
    key, sep, n = ref.rpartition("_")
    if not sep or not n.isdigit():
        key, n = ref, "1"
    k = int(n)
    for i, c in enumerate(cards):
        if slug(c["name"]) == key:
            k -= 1
            if k == 0:
                return i
    return None


def locate(cards: list[dict], d: Decision) -> int:
    """The position in `cards` of the card decision `d` names. Legality is checked before
    handlers run (and older positional ids mapped to card references), so the card exists."""
    i = d.pos if d.pos is not None else find_card(cards, d.card)
    if i is None:  # pragma: no cover - legal decisions name cards present
        raise AssertionError(f"no card {d.card!r} for {d.id}")
    return i
