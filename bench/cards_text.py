"""Benchmark: how much real card text `engine.cardtext` translates into the engine's vocabulary,
and how much of it the engine actually runs.

    python bench/cards_text.py [--nrdb-dir ../shared/nrdb/v2] [--cr ../shared/cr/cr-26.03.html]
                               [--all] [--show-unrecognised] [--show-not-run]

Counts, over the cards legal in the latest Standard snapshot (every card with --all): ice
subroutine lines (every subroutine of every card) and paid-ability lines of icebreakers, and
prints the share translated into effects / abilities (the rest stays text for the judge), and
the share the engine RUNS: each recognised line is put on a board (the subroutine on a rezzed
ice with the card's strength and subtypes; the ability on the icebreaker against an ice it can
break) and stepped through a run under the CR; it counts only if the engine resolves it (the
subroutine resolves with no part left to the judge; the ability is offered and used) without
an error.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


_STEPS = 300  # decisions per stepped run (the runs here need a few dozen)


def _rich_board(ice: dict, programs: list[dict], threat: int = 2) -> dict:
    """A board where every effect of the vocabulary has something to act on: cards in HQ, R&D,
    the grip and the stack, a tagged Runner with a rig, agendas scored (threat level)."""
    return {
        "version": 1,
        "corp": {
            "credits": 10,
            "hand": 5,
            "deck": 10,
            "score_area": [{"name": "Agenda", "type": "agenda", "agenda_points": threat}],
        },
        "runner": {
            "credits": 30,
            "clicks": 3,
            "tags": 1,
            "hand": 5,
            "deck": 10,
            "rig": {"programs": programs, "hardware": ["Gear"], "resources": ["Contact"]},
        },
        "servers": {"hq": {"ice": [ice]}},
    }


def _walk(s, prefer):
    """Step a session to its end, taking `prefer(legal ids)` at each decision."""
    import engine

    for _ in range(_STEPS):
        if s.finished:
            break
        s, _ = engine.apply(s, prefer([d["id"] for d in engine.legal_decisions(s)]))
    return s


def runs_subroutine(card, sub: object, doc) -> bool:
    """Does the engine resolve this subroutine, in an encounter with a rezzed ice carrying it,
    with nothing left to the judge?"""
    import engine

    ice = {
        "name": card.title[:100],
        "rezzed": True,
        "rez_cost": 0,
        "strength": max(0, min(99, card.strength or 0)),
        "subtypes": [st.replace("_", " ") for st in card.subtypes][:10],
        "subroutines": [sub],
    }
    try:
        s = engine.start(_rich_board(ice, ["Program"]), "run", doc, {"server": "hq"})
        s = _walk(s, lambda legal: "pass" if "pass" in legal else legal[0])
    except Exception:  # noqa: BLE001 - a benchmark counts failures, it does not stop on them
        return False
    texts = [e.text for e in s.trace]
    resolved = any(t.startswith(f"The Corp resolves unbroken subroutine 1 of {ice['name']}") for t in texts)
    by_hand = any("resolved as written by the judge" in t for t in texts)
    return s.finished and resolved and not by_hand


def runs_ability(card, ability: dict, doc) -> bool:
    """Is this icebreaker ability offered against an ice it can break, and does the engine
    resolve it when the Runner uses it?"""
    import engine

    ice = {
        "name": "Target",
        "rezzed": True,
        "rez_cost": 0,
        "strength": 0,
        "subtypes": [ability.get("ice_subtype", "barrier")],
        "subroutines": ["end_the_run", "end_the_run"],
    }
    program = {
        "name": card.title[:100],
        "memory_cost": 0,
        "strength": max(0, min(99, card.strength or 0)),
        "subtypes": ["icebreaker"],
        "abilities": [ability],
    }

    def prefer(legal: list[str]) -> str:
        use = [x for x in legal if x.startswith("use:")]  # the program's only ability (use:CARD.0)
        if use:
            return use[0]
        for want in ("sub:0", "done", "pass", "continue"):
            if want in legal:
                return want
        return legal[0]

    try:
        s = engine.start(
            _rich_board(ice, [program], threat=ability.get("threat", 2)), "run", doc, {"server": "hq"}
        )
        s = _walk(s, prefer)
    except Exception:  # noqa: BLE001
        return False
    return s.finished and any(
        e.step == "step_paid_ability_resolution" and e.applied and e.objects.get("ability") == 0
        for e in s.trace
    )


def measure(nrdb_dir: str, every_card: bool, cr_path: str | None = None) -> dict:
    from engine.cardtext import (
        ability_lines,
        engine_accepts,
        parse_ability,
        parse_subroutine,
        subroutine_lines,
    )
    from rules_index.cards import standard_legality
    from scraper.nrdb import load

    data = load(nrdb_dir)
    legality, _ = standard_legality(data)
    doc = _load_cr(cr_path)
    subs_total = subs_ok = abil_total = abil_ok = accepted = ran = 0
    missed: Counter[str] = Counter()
    not_run: Counter[str] = Counter()
    for card in data.cards.values():
        if not every_card and not legality[card.id].legal:
            continue
        if card.card_type_id == "ice":
            for line in subroutine_lines(card.text):
                subs_total += 1
                sub = parse_subroutine(line)
                if isinstance(sub, dict) and sub.get("effect") == "text":
                    missed[line] += 1
                else:
                    subs_ok += 1
                    accepted += engine_accepts(sub)
                    ok = runs_subroutine(card, sub, doc)
                    ran += ok
                    if not ok:
                        not_run[line] += 1
        if "icebreaker" in card.subtypes:
            for line in ability_lines(card.text):
                abil_total += 1
                ability = parse_ability(line)
                if ability["kind"] == "text":
                    missed[line] += 1
                else:
                    abil_ok += 1
                    accepted += engine_accepts(ability, ability=True)
                    ok = runs_ability(card, ability, doc)
                    ran += ok
                    if not ok:
                        not_run[line] += 1
    return {
        "subs": (subs_ok, subs_total),
        "abilities": (abil_ok, abil_total),
        "missed": missed,
        "accepted": accepted,
        "runs": ran,
        "not_run": not_run,
    }


def _load_cr(path: str | None):
    from scraper import parse_html

    cr = Path(path) if path else ROOT.parent / "shared" / "cr" / "cr-26.03.html"
    return parse_html(cr.read_bytes(), str(cr))


def _share(pair: tuple[int, int]) -> str:
    ok, total = pair
    return f"{ok}/{total} = {100 * ok / total:.1f} %" if total else "0/0"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nrdb-dir", default=str(ROOT.parent / "shared" / "nrdb" / "v2"))
    ap.add_argument("--cr", default=None, help="the CR HTML the runs are stepped under (default: 26.03)")
    ap.add_argument("--all", action="store_true", help="every card, not only Standard-legal ones")
    ap.add_argument("--show-unrecognised", action="store_true")
    ap.add_argument("--show-not-run", action="store_true", help="recognised lines the engine did not run")
    args = ap.parse_args()
    r = measure(args.nrdb_dir, args.all, args.cr)
    both = (r["subs"][0] + r["abilities"][0], r["subs"][1] + r["abilities"][1])
    scope = "all cards" if args.all else "Standard-legal cards"
    print(f"{scope}: ice subroutine lines      {_share(r['subs'])} recognised")
    print(f"{scope}: icebreaker paid abilities {_share(r['abilities'])} recognised")
    print(f"{scope}: together                  {_share(both)} recognised")
    print(f"{scope}: accepted by the board format   {_share((r['accepted'], both[1]))}")
    print(
        f"{scope}: runs as engine effects         {_share((r['runs'], both[1]))} "
        "(stepped through a run; the rest is text for the judge)"
    )
    if args.show_unrecognised:
        for line, n in r["missed"].most_common():
            print(f"  {n:3d}  {line}")
    if args.show_not_run:
        for line, n in r["not_run"].most_common():
            print(f"  not run {n:3d}  {line}")


if __name__ == "__main__":
    main()
