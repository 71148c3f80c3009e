"""Judge and player jargon, expanded to the words the Comprehensive Rules use.

Each entry lists what people type (lowercase; matched as whole words, longest first), the CR
words a query should also look for, and the stable id of the rule that answers a bare query for
it (``tests/test_search_jargon.py`` checks that every entry finds its rule). `PHRASINGS` are
everyday words inside a question with the CR's word for them and no rule of their own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memo import memo

__all__ = ["Jargon", "JARGON", "expand", "find_jargon"]


@dataclass(frozen=True)
class Jargon:
    phrases: tuple[str, ...]  # what people type
    expansion: str  # the CR's words for it
    # stable id of the rule a bare query should find first; None for a phrasing that only
    # translates words inside a question ("at the same time" -> "simultaneously")
    rule: str | None


JARGON: tuple[Jargon, ...] = (
    Jargon(("paw", "paws", "paid window"), "paid ability window", "rule_paid_ability_window"),
    Jargon(("etr", "end-the-run"), "end the run", "rule_end_the_run"),
    Jargon(("bp", "bad pub"), "bad publicity", "rule_bad_publicity"),
    Jargon(("mu", "memory units"), "memory unit", "rule_memory_unit"),
    # Zone names and the CR's plain words for them (4.2.7, 4.2.8, 4.3.8, 4.3.9, 4.4.6, 4.4.7).
    Jargon(("hq", "headquarters"), "corp's hand", "rule_hq_name"),
    Jargon(("r&d", "rnd", "r and d", "r & d", "research and development"), "corp's deck", "rule_rnd_name"),
    Jargon(("archives", "archive"), "corp's discard pile", "rule_archives_name"),
    Jargon(("brain damage", "brain dmg", "core dmg"), "core damage", "rule_core_damage"),
    Jargon(
        ("multi-access", "multiaccess", "multi access", "extra accesses", "access extra cards"),
        "access additional cards random access limit",
        "rule_increasing_random_access_limit",
    ),
    Jargon(
        ("deck out", "decked out", "decking", "deck-out", "decked", "out of cards", "runs out of cards"),
        "draw a card from r&d but cannot because r&d is empty",
        "rule_empty_rnd",
    ),
    Jargon(("flatline", "flatlining", "flatlines"), "flatlined", "rule_flatline"),
    Jargon(("subs", "sub"), "subroutine", "rule_subroutine"),
    Jargon(
        ("breaker", "breakers", "ice breaker", "ice breakers"),
        "icebreaker interface",
        "rule_icebreaker_interface",
    ),
    Jargon(
        ("pump", "pumping", "pumped"),
        "icebreaker strength increase",
        "rule_icebreaker_strength_increase_implicit",
    ),
    Jargon(("oof", "out of faction", "splash"), "out-of-faction influence", "rule_influence_limit"),
    Jargon(("inf",), "influence", "rule_influence_limit"),
    Jargon(("ap", "aps"), "agenda points score", "rule_score"),
    Jargon(("adv", "advancement tokens"), "advancement counters", "rule_type_advancement_counter"),
    Jargon(("creds", "cred", "bucks", "money"), "credit", "rule_credit"),
    Jargon(("dmg",), "damage", "rule_suffer_or_take_damage"),
    Jargon(("rfg", "removed from game"), "removed-from-game zone", "rule_removed_from_game_zone"),
    Jargon(("i.c.e.", "ices"), "ice", "sec_ice"),
    Jargon(("id",), "identity", "rule_identity"),
    Jargon(("mull", "redraw", "redraw opening hand"), "mulligan", "rule_mulligan"),
    Jargon(("grip",), "runner's hand", "rule_grip_name"),
    Jargon(("heap",), "runner's discard pile", "rule_heap_name"),
    Jargon(("stack",), "runner's deck", "rule_stack_name"),
    Jargon(("psi",), "psi game", "rule_psi_game"),
    Jargon(("max hand size", "hand limit", "hand size"), "maximum hand size", "rule_maximum_hand_size"),
    Jargon(("tag me", "tagme", "tagged up"), "tagged", "rule_tagged"),
    Jargon(("dead", "lose by damage"), "flatlined", "rule_flatline"),
    Jargon(("give up", "gives up", "giving up"), "forfeit", "movement_forfeit"),
    # The CR writes these as one word; players write two.
    Jargon(("face up", "face-up"), "faceup", "rule_faceup_facedown"),
    Jargon(("face down", "face-down"), "facedown", "rule_faceup_facedown"),
    Jargon(("virus purge", "purging"), "purge virus counters", "rule_purge"),
    Jargon(("infinite combo", "loop", "loops"), "infinite loop", "rule_mandatory_infinite_loop"),
    Jargon(("trash it", "pay to trash"), "basic trash ability", "rule_basic_trash_ability"),
    Jargon(("forced encounter", "force encounter"), "forced encounter", "rule_forced_encounter"),
    Jargon(
        ("jack", "jacking", "jack out", "jacked out", "leave the run", "leaves the run", "bail out"),
        "jacking out jack out",
        "rule_jacking_out",
    ),
    # Player phrasing of whole situations, in the CR's words.
    Jargon(
        (
            "no cards in hand",
            "no cards in their hand",
            "no cards left in hand",
            "no cards in grip",
            "no cards in their grip",
            "no cards left in grip",
            "empty hand",
            "empty grip",
        ),
        "more damage than cards in grip flatlined",
        "rule_flatline",
    ),
    Jargon(
        ("trash an agenda", "trash agendas", "trash the agenda"),
        "trash cost basic trash ability",
        "rule_paying_trash_costs",
    ),
    Jargon(("starting hand", "opening hand"), "draws 5 cards starting hand", "rule_start_hand"),
    Jargon(
        ("copies of a card", "copy limit"), "more than 3 copies of any single card", "rule_maximum_copies"
    ),
    Jargon(("goes first", "first turn", "who starts"), "corp takes their first turn", "rule_start_corp_turn"),
    Jargon(("skip the encounter", "skip ice", "skip the ice"), "bypass", "rule_bypass"),
    Jargon(
        ("7 points", "seven points", "win the game"),
        "score of 7 or more wins the game",
        "rule_win_agenda_points",
    ),
)


# Everyday phrasings inside a question, in the CR's words. No rule of their own: they only
# translate ("do I have to" -> "must", "at the same time" -> "simultaneously").
PHRASINGS: tuple[Jargon, ...] = (
    Jargon(("at the same time", "same time"), "simultaneously", None),
    Jargon(("get rid of", "gets rid of", "getting rid of", "got rid of"), "remove", None),
    Jargon(("refuse", "refuses", "refused", "say no", "opt out"), "decline", None),
    Jargon(
        ("have to", "has to", "had to", "forced to", "obliged to", "required to", "obligated to"),
        "must required",
        None,
    ),
    Jargon(("out of memory", "not enough memory", "no memory", "over memory"), "exceed memory limit", None),
    Jargon(("come back", "comes back", "reset", "resets", "refilled"), "refill", None),
    Jargon(("flip", "flips", "flipped", "turn over", "turned over"), "turn faceup facedown", None),
    Jargon(("tutor", "tutors", "search my deck", "search their deck"), "search", None),
    Jargon(("mill", "milled", "milling"), "trash top cards", None),
    Jargon(("face check", "facecheck", "face-check", "facechecking"), "encounter unrezzed ice", None),
    Jargon(("tax", "taxes"), "additional cost", None),
    Jargon(("as soon as", "right away", "straight away", "straightaway"), "immediately", None),
    Jargon(("econ", "economy"), "gain credits", None),
    # Player words for states the CR names with one word of its own.
    Jargon(("unused", "leftover", "left over", "remaining"), "unspent", None),
    Jargon(
        ("does not break", "doesn't break", "don't break", "do not break", "didn't break", "not broken"),
        "unbroken",
        None,
    ),
    Jargon(("rearrange", "reorder", "re-order", "shuffle around"), "order unordered", None),
    Jargon(("fire", "fires", "fired", "go off", "goes off"), "resolve", None),
    Jargon(("lower", "lowers", "decrease", "decreases", "shrink", "shrinks"), "reduce", None),
    Jargon(("put", "puts", "putting"), "install", None),
    Jargon(("active",), "active inactive", None),
    Jargon(("chance", "chances"), "opportunity", None),
    Jargon(("higher", "bigger", "larger"), "greater", None),
    Jargon(("kill", "kills", "killed", "snipe", "sniped", "pop", "pops", "popped"), "trash", None),
    Jargon(("cancel", "cancels", "cancelled", "canceled", "negate", "negates"), "prevent", None),
)
JARGON = JARGON + PHRASINGS


def _phrase_index() -> list[tuple[str, Jargon]]:
    pairs = [(p.lower(), j) for j in JARGON for p in j.phrases]
    pairs.sort(key=lambda pj: -len(pj[0]))
    return pairs


@memo("jargon.matcher")
def _matcher() -> tuple[re.Pattern, dict[str, Jargon]]:
    pairs = _phrase_index()
    table = {p: j for p, j in pairs}
    alternatives = "|".join(re.escape(p).replace(r"\ ", r"\s+") for p, _ in pairs)
    return re.compile(rf"(?<![\w&-])(?:{alternatives})(?![\w&-])", re.IGNORECASE), table


def find_jargon(text: str) -> list[tuple[str, Jargon]]:
    """The jargon phrases in a query, longest match first, as (matched text, entry)."""
    pattern, table = _matcher()
    out = []
    for m in pattern.finditer(text):
        key = " ".join(m.group(0).lower().split())
        entry = table.get(key)
        if entry is not None:
            out.append((m.group(0), entry))
    return out


def expand(text: str) -> tuple[str, list[Jargon]]:
    """The query with jargon phrases removed, and the entries found (their expansions are added
    to the query as alternatives by the searcher)."""
    pattern, table = _matcher()
    found: list[Jargon] = []

    def repl(m: re.Match) -> str:
        entry = table.get(" ".join(m.group(0).lower().split()))
        if entry is not None and entry not in found:
            found.append(entry)
        return " "

    rest = pattern.sub(repl, text)
    return rest, found
