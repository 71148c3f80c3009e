"""Benchmark: linking a game log to the rules (POST /api/annotate, `nrrules annotate`).

    python bench/annotate.py [--build-dir DIR] [--cr-dir ../shared/cr] [--cards ../shared/nrdb/v2] [--repeat 20]

Without --build-dir, builds CR 26.03 and the NetrunnerDB card data into a temporary directory
first (card names are linked only with card data, so that is the case to measure). Then prints,
in ms per 100 log lines (best and median of --repeat; target: <= 50 ms), for the labelled log of
tests/fixtures/gamelog repeated to 100 and to 2,000 lines (the API's bound):

* reading: `rules_index.gamelog.annotate_lines` (patterns and the timing position only);
* payload: `webapp.payloads.gamelog.annotate` (numbers, links and card lookups too);
* request: POST /api/annotate through the Flask test client (body parsing and JSON too).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOG = ROOT / "tests" / "fixtures" / "gamelog" / "turn-pair.log"


def timed(fn, repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times)


def log_of(lines: list[str], n: int) -> str:
    out = (lines * (n // len(lines) + 1))[:n]
    return "\n".join(out) + "\n"


def run(build_dir: Path, repeat: int) -> None:
    from rules_index.gamelog import annotate_lines
    from rules_index.store import Library
    from webapp import create_app
    from webapp.payloads import Rules
    from webapp.payloads.gamelog import annotate

    rules = Rules(Library.open(build_dir))
    client = create_app({"TESTING": True, "BUILD_DIR": str(build_dir)}).test_client()
    lines = LOG.read_text(encoding="utf-8").splitlines()
    annotate(rules, log_of(lines, 100))  # load the document and the card data once
    first = client.post("/api/annotate", data=log_of(lines, 100), content_type="text/plain").get_json()
    print(
        f"CR {first['version']}, card data built: {first['cards_built']}; "
        f"{first['counts']['linked']} of {first['counts']['lines']} lines linked in the 100-line log"
    )
    print(
        f"{'lines':>6}  {'reading':>16}  {'payload':>16}  {'request':>16}   ms per 100 lines (best / median)"
    )
    for n in (100, 2000):
        text = log_of(lines, n)
        split = text.splitlines()
        cells = []
        for fn in (
            lambda split=split: annotate_lines(split),
            lambda text=text: annotate(rules, text),
            lambda text=text: client.post("/api/annotate", data=text, content_type="text/plain").get_data(),
        ):
            lo, med = timed(fn, repeat)
            cells.append(f"{lo * 1000 * 100 / n:7.2f} / {med * 1000 * 100 / n:6.2f}")
        print(f"{n:>6}  {cells[0]:>16}  {cells[1]:>16}  {cells[2]:>16}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", type=Path, default=None, help="an existing build (default: build one)")
    ap.add_argument("--cr-dir", default=str(ROOT.parent / "shared" / "cr"))
    ap.add_argument("--cards", default=str(ROOT.parent / "shared" / "nrdb" / "v2"))
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    if args.build_dir is not None:
        run(args.build_dir, args.repeat)
        return
    from rules_index.cards import build_cards
    from rules_index.store import build

    with tempfile.TemporaryDirectory() as tmp:
        build_dir = Path(tmp) / "build"
        build(str(Path(args.cr_dir) / "cr-26.03.html"), build_dir)
        build_cards(args.cards, build_dir)
        run(build_dir, args.repeat)


if __name__ == "__main__":
    main()
