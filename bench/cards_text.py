"""Benchmark: how much real card text `engine.cardtext` translates into the engine's vocabulary.

    python bench/cards_text.py [--nrdb-dir ../shared/nrdb/v2] [--all] [--show-unrecognised]

Counts, over the cards legal in the latest Standard snapshot (every card with --all): ice
subroutine lines (every subroutine of every card) and paid-ability lines of icebreakers, and
prints the share translated into effects / abilities (the rest stays text for the judge), and
how much of it the engine's board format (engine.board) accepts today.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def measure(nrdb_dir: str, every_card: bool) -> dict:
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
    subs_total = subs_ok = abil_total = abil_ok = accepted = 0
    missed: Counter[str] = Counter()
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
        if "icebreaker" in card.subtypes:
            for line in ability_lines(card.text):
                abil_total += 1
                ability = parse_ability(line)
                if ability["kind"] == "text":
                    missed[line] += 1
                else:
                    abil_ok += 1
                    accepted += engine_accepts(ability, ability=True)
    return {
        "subs": (subs_ok, subs_total),
        "abilities": (abil_ok, abil_total),
        "missed": missed,
        "accepted": accepted,
    }


def _share(pair: tuple[int, int]) -> str:
    ok, total = pair
    return f"{ok}/{total} = {100 * ok / total:.1f} %" if total else "0/0"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nrdb-dir", default=str(ROOT.parent / "shared" / "nrdb" / "v2"))
    ap.add_argument("--all", action="store_true", help="every card, not only Standard-legal ones")
    ap.add_argument("--show-unrecognised", action="store_true")
    args = ap.parse_args()
    r = measure(args.nrdb_dir, args.all)
    both = (r["subs"][0] + r["abilities"][0], r["subs"][1] + r["abilities"][1])
    scope = "all cards" if args.all else "Standard-legal cards"
    print(f"{scope}: ice subroutine lines      {_share(r['subs'])}")
    print(f"{scope}: icebreaker paid abilities {_share(r['abilities'])}")
    print(f"{scope}: together                  {_share(both)}")
    print(
        f"{scope}: of which this engine's board format accepts now {_share((r['accepted'], both[1]))} "
        "(the rest goes on the board as text until the engine implements the new effects)"
    )
    if args.show_unrecognised:
        for line, n in r["missed"].most_common():
            print(f"  {n:3d}  {line}")


if __name__ == "__main__":
    main()
