"""The board editor with a thumb (issue 35, issue 33's done-when scenario), measured. Prints
numbers; asserts nothing.

In headless Chromium at 390x844 against a real gunicorn serving a build with the card data:
build the Tollbooth + Ice Wall remote with Hostile Takeover in its root and the Corroder +
Gordian Blade rig with 6 credits by card names in the editor, then step the run to its end.
Printed: taps, page loads, screens of scrolling and characters typed, for building the board and
for stepping, and how the run ended. The counting is tests/editor_flow.py's (the same flow the
browser test asserts).

Then the time of one decision on the same board at 390x844 on the "Fast 3G" profile of
bench/stepper.py (CDP network emulation, HTTP cache on as in a browser): from the tap to the next
position drawn, in place (with JavaScript: the decision's JSON twin with the page part) and as a
page load (without JavaScript: the form post, its redirect and the new page), median of the
three Gordian Blade pumps.

Usage: python bench/editor_thumbs.py [--build-dir DIR] [--base URL] [--log]
(--base: measure a server already running instead of starting one on the build)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import statistics  # noqa: E402
import time  # noqa: E402
import urllib.request  # noqa: E402

from editor_flow import Thumb, build_scenario, step_to_end  # noqa: E402
from playwright.sync_api import expect, sync_playwright  # noqa: E402
from stepper import FAST_3G  # noqa: E402  (bench/stepper.py: the same network profile)

from webapp import liveserver as live  # noqa: E402

CHROMIUM = os.environ.get("NRRULES_CHROMIUM", "/usr/bin/chromium")


def measure(base: str, show_log: bool) -> dict:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=1)
        page.set_default_timeout(20_000)
        thumb = Thumb(page)
        built = build_scenario(thumb, base, expect)
        step_to_end(thumb, expect)
        total = thumb.counts()
        finished = page.locator("#finished").inner_text()
        if show_log:
            print("\n".join(thumb.log), file=sys.stderr)
        browser.close()
    stepped = {k: round(total[k] - built[k], 2) for k in total}
    return {"build": built, "step": stepped, "total": total, "finished": finished}


def scenario_token(base: str) -> str:
    """The same board through the API (cards by id), the run started: its token."""

    def card(card_id: str) -> dict:
        with urllib.request.urlopen(f"{base}/api/cards/{card_id}/board") as resp:
            return json.load(resp)["card"]

    ice = [dict(card("tollbooth"), rezzed=True), dict(card("ice_wall"), rezzed=True)]
    board = {
        "format": "nrrules-board",
        "version": 1,
        "servers": {"remote1": {"ice": ice, "content": card("hostile_takeover")}},
        "runner": {"credits": 6, "rig": {"programs": [card("corroder"), card("gordian_blade")]}},
    }
    started = live.post_json(
        base, "/api/engine/sessions", {"board": board, "structure": "run", "params": {"server": "remote1"}}
    )
    return started["token"]


def decision_times(base: str, token: str) -> dict[str, float]:
    out = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        for how, js in (("in_place_s", True), ("page_load_s", False)):
            ctx = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=js)
            page = ctx.new_page()
            page.set_default_timeout(60_000)
            page.goto(f"{base}/step?s={token}")
            cdp = ctx.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.send("Network.emulateNetworkConditions", FAST_3G)
            times = []
            for n in range(1, 4):
                button = page.locator("#decisions button[data-decision^='use:gordian-blade']")
                t0 = time.perf_counter()
                if js:
                    button.click()
                    expect(page.locator(".st h1 small")).to_contain_text(f"{n} decision")
                else:
                    with page.expect_navigation(wait_until="load"):
                        button.click()
                times.append(time.perf_counter() - t0)
            out[how] = round(statistics.median(times), 3)
            ctx.close()
        browser.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build-dir", help="a build with the card data (default: NRRULES_BUILD_DIR)")
    ap.add_argument("--base", help="measure this running server instead")
    ap.add_argument("--log", action="store_true", help="print every tap and typing to stderr")
    args = ap.parse_args()
    if args.base:
        base = args.base.rstrip("/")
        out = measure(base, args.log)
        out["decision_fast_3g"] = decision_times(base, scenario_token(base))
    else:
        build = args.build_dir or os.environ.get("NRRULES_BUILD_DIR")
        if not build:
            sys.exit("give --build-dir (a build with --cards) or --base")
        with live.live_server(build) as srv:
            out = measure(srv.base, args.log)
            out["decision_fast_3g"] = decision_times(srv.base, scenario_token(srv.base))
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
