"""The stepper's trace, counted in lines a judge reads (issue 35). Prints numbers; asserts nothing.

The run: engine/examples/rig-run.json with Tollbooth rezzed, on remote1: Crypsis pumps five
times and breaks Tollbooth, the Runner continues, Corroder breaks Ice Wall, the Runner continues
to the access (9 decisions, 205 engine steps). After each decision, on the stepper page:

* visible: lines shown without a tap (each phase's heading; in an open phase, its lines and the
  heading of its "did not apply" fold) -- the page as it loads;
* every phase open: the same with every phase's group opened ("Expand all"), lines still folded;
* brief: the lines of "What the last decision did".

Counted from the HTML the server renders (Flask test client, no browser): the browser test
tests/test_browser_phone.py counts the same lines with Chromium's checkVisibility.

Usage: python bench/trace_lines.py [--build-dir DIR]
"""

from __future__ import annotations

import argparse
import copy
import json
from pathlib import Path

import lxml.html

import engine
from webapp import create_app

PICKS = ["use:crypsis.1"] * 5 + ["use:crypsis.0", "continue", "use:corroder.0", "continue"]


def board() -> dict:
    b = json.loads((Path(engine.__file__).parent / "examples" / "rig-run.json").read_text())
    b = copy.deepcopy(b)
    b["servers"]["remote1"]["ice"][0]["rezzed"] = True
    # Tollbooth's toll (3 on encounter, "must pay, if able") comes first: 3 more credits keep
    # the five pumps and the break affordable
    b["runner"]["credits"] += 3
    return b


def count(root, every: bool) -> int:
    n = 0
    for group in root.xpath("//div[@id='trace']/details"):
        n += 1
        if every or group.get("open") is not None:
            n += len(group.xpath("./ol[@class='tl']/li")) + len(group.xpath("./details[@class='fold']"))
    return n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", default=None)
    args = ap.parse_args()
    client = create_app({"TESTING": True, "BUILD_DIR": args.build_dir}).test_client()
    r = client.post(
        "/api/engine/sessions", json={"board": board(), "structure": "run", "params": {"server": "remote1"}}
    )
    st = r.get_json()
    worst = [0, 0]
    print("decision  steps  visible  every-phase-open  brief")
    for i, pick in enumerate(PICKS, 1):
        st = client.post(f"/api/engine/sessions/{st['token']}/decisions", json={"decision": pick}).get_json()
        page = client.get(f"/step?s={st['token']}").get_data(as_text=True)
        root = lxml.html.fromstring(page)
        steps = client.get(f"/api/engine/sessions/{st['token']}").get_json()["trace_length"]
        visible, every = count(root, False), count(root, True)
        worst = [max(worst[0], visible), max(worst[1], every)]
        brief = len(root.xpath("//ol[@class='brief']/li"))
        print(f"{i:8d}  {steps:5d}  {visible:7d}  {every:16d}  {brief:5d}")
    print(f"most visible lines: {worst[0]}; most with every phase open: {worst[1]}")


if __name__ == "__main__":
    main()
