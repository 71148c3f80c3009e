"""Benchmark: the engine's card records from NetrunnerDB data, and a session on a board of real cards.

    .venv/bin/python bench/card_records.py [--nrdb-dir ../shared/nrdb/v2] [--version 26.03] [--repeat 5]

Prints:

* the time to make every card's board object and its account of units (`engine.cardtext`
  `board_card` + `card_units`) for the whole data set (target: at most 2 s), best of --repeat;
* the time to read every behaviour record (engine/cards, schema-checked, `engine.cardrecords.load`
  with no memo) and resolve every recorded card against the card data (`resolve`), and to
  propose every record as the generator does (`generate`, nothing written) (target: at most 2 s);
* the time to start a session (`engine.start`, a run) on a board of 40 real cards put on it by
  name (ice on three servers, assets and upgrades, a Runner rig), median and best of 50 starts
  (target: at most 20 ms), and the time of its decisions to the run's end (at most 20).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ICE = [
    "tollbooth",
    "ice_wall",
    "enigma",
    "hadrians_wall",
    "wall_of_static",
    "vanilla",
    "quandary",
    "rototurret",
]
RIG = [
    "corroder",
    "gordian_blade",
    "mimic",
    "lilypad",
    "cyberfeeder",
    "r_d_interface",
    "desperado",
    "daily_casts",
]


def board_of(cards: dict, names: dict) -> dict:
    from engine.cardrecords import resolve  # the editor's path: the card's record where present

    def card(cid: str, **extra) -> dict:
        return {**resolve(cards[cid], names).card, **extra}

    ice = [cid for cid in ICE if cid in cards]
    up = [card("ash_2x3zb9cy", rezzed=True)] if "ash_2x3zb9cy" in cards else []
    servers: dict = {
        "hq": {"ice": [card(c, rezzed=True) for c in ice[:3]], "root": up},
        "rd": {"ice": [card(c, rezzed=True) for c in ice[3:6]], "root": up},
        "archives": {"ice": [card(c, rezzed=True) for c in ice[6:]], "root": up},
    }
    for n in range(1, 8):
        servers[f"remote{n}"] = {
            "ice": [card(c, rezzed=True) for c in ice[:2]],
            "content": card("pad_campaign", rezzed=True) if "pad_campaign" in cards else None,
        }
    rig = [c for c in RIG if c in cards]
    kinds = {"program": "programs", "hardware": "hardware", "resource": "resources"}
    rig_zones: dict = {"programs": [], "hardware": [], "resources": []}
    for cid in rig:
        rig_zones[kinds[cards[cid].card_type_id]].append(card(cid))
    return {
        "version": 1,
        "turn": "runner",
        "corp": {"credits": 20},
        "runner": {"credits": 30, "clicks": 4, "rig": rig_zones},
        "servers": servers,
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--nrdb-dir", default=str(ROOT.parent / "shared" / "nrdb" / "v2"))
    ap.add_argument("--version", default="26.03")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()

    import engine
    from engine.cardtext import board_card, card_units
    from scraper import parse_html
    from scraper.nrdb import load

    data = load(args.nrdb_dir)
    names = {k: v.name for k, v in data.card_subtypes.items()}
    cards = data.cards
    print(f"engine: {engine.NATIVE_STATUS}; {len(cards)} cards")
    best = float("inf")
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        n = 0
        for c in cards.values():
            try:
                board_card(c, names)
                card_units(c, names)
                n += 1
            except ValueError:
                pass
        best = min(best, time.perf_counter() - t0)
    print(f"  board objects and units for {n} cards: {best:.2f} s (best of {args.repeat}; target <= 2 s)")

    from engine import cardrecords
    from rules_index.cards import standard_legality

    legality, _ = standard_legality(data)
    pool = [cid for cid, leg in legality.items() if leg.legal]
    best = best_gen = float("inf")
    for _ in range(args.repeat):
        cardrecords._LOADED.clear()  # read and check every file again
        t0 = time.perf_counter()
        recs = cardrecords.load()
        for cid in recs.by_id:
            cardrecords.resolve(cards[cid], names, recs)
        best = min(best, time.perf_counter() - t0)
        t0 = time.perf_counter()
        said, _ = cardrecords.generate(data, pool, cardrecords.RECORDS_DIR, write=False)
        best_gen = min(best_gen, time.perf_counter() - t0)
    print(
        f"  behaviour records: read and check {len(recs)} and resolve their cards: {best:.2f} s; "
        f"the generator over {len(pool)} Standard cards ({len(said)} changes): {best_gen:.2f} s "
        f"(best of {args.repeat}; target <= 2 s)"
    )

    b = board_of(cards, names)
    count = sum(
        len(s["ice"]) + len(s.get("root", ())) + (1 if s.get("content") else 0) for s in b["servers"].values()
    ) + sum(len(z) for z in b["runner"]["rig"].values())
    assert engine.validate_board(b) == [], engine.validate_board(b)[:3]
    path = ROOT.parent / "shared" / "cr" / f"cr-{args.version}.html"
    doc = parse_html(path.read_bytes(), str(path))
    t0 = time.perf_counter()
    engine.start(b, "run", doc, {"server": "hq"}, seed=1000)
    first = time.perf_counter() - t0
    print(
        f"  engine.start, the first time this board is seen (validated and normalised): {first * 1000:.1f} ms"
    )
    times = []
    for i in range(50):
        t0 = time.perf_counter()
        engine.start(b, "run", doc, {"server": "hq"}, seed=i)  # a new seed: no started-session memo
        times.append(time.perf_counter() - t0)
    print(
        f"  engine.start on a board of {count} real cards, again (the document keeps the prepared board): median {statistics.median(times) * 1000:.1f} ms, "
        f"best {min(times) * 1000:.1f} ms (target <= 20 ms)"
    )
    s = engine.start(b, "run", doc, {"server": "hq"}, seed=99)
    t0 = time.perf_counter()
    k = 0
    while not s.finished and k < 20:
        ids = [d["id"] for d in engine.legal_decisions(s)]
        pick = next((x for x in ("continue", "pass", "resolved", "no_trash") if x in ids), ids[0])
        engine.push(s, pick)
        k += 1
    print(
        f"  its {k} decisions to the run's end (passing, resolving by hand): {(time.perf_counter() - t0) * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
