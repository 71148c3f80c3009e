"""The stepper page, measured (issue 12). Prints numbers; asserts nothing.

For a finished run through two pieces of ice (engine/examples/remote-run.json on remote1: the
Corp rezzes the outer ice, the Runner breaks every subroutine and accesses both cards) and for
the same board with the Corp rezzing nothing and the Runner breaking nothing:

* bytes of the stepper page's HTML before compression, and gzipped;
* server time to render it (the engine's answer cached, as on a reload, and not);
* time to load and render it in Chromium at 390x844 on Chrome DevTools' "Fast 3G" profile
  (CDP network emulation: 562.5 ms RTT, ~1.44 Mbit/s down), caches disabled: the page's
  `load` event and first contentful paint; and on the loopback without emulation.

Usage: python bench/stepper.py [--build-dir DIR] [--repeat 5]
Needs Debian's chromium and Playwright (as the browser tests do). The target is < 50 KB of HTML
and < 1.5 s on fast 3G.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import time
import urllib.request
from pathlib import Path

from webapp import liveserver as live

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("NRRULES_CHROMIUM", "/usr/bin/chromium")
FAST_3G = {"offline": False, "latency": 562.5, "downloadThroughput": 1.6 * 1024 * 1024 / 8 * 0.9,
           "uploadThroughput": 750 * 1024 / 8 * 0.9}  # fmt: skip


def break_all(ids: list[str]) -> str:
    return next((i for i in ids if i.startswith("break:")), None) or (
        "continue" if "continue" in ids else ids[0]
    )


def no_rez_no_break(ids: list[str]) -> str:
    """The Corp never rezzes, the Runner never breaks or jacks out (a shorter trace)."""
    for want in ("pass", "continue", "no_trash"):
        if want in ids:
            return want
    return next(i for i in ids if i != "jack_out")


def finished_url(base: str, post, pick) -> tuple[str, int]:
    board = json.loads((ROOT / "engine" / "examples" / "remote-run.json").read_text())
    d = post(
        base, "/api/engine/sessions", {"board": board, "structure": "run", "params": {"server": "remote1"}}
    )
    n = 0
    while not d["finished"]:
        d = post(
            base,
            f"/api/engine/sessions/{d['token']}/decisions",
            {"decision": pick([x["id"] for x in d["decisions"]])},
        )
        n += 1
    return d["url"], n


def fetch(url: str) -> tuple[bytes, float]:
    t = time.perf_counter()
    with urllib.request.urlopen(urllib.request.Request(url, headers={"Accept-Encoding": "identity"})) as r:
        body = r.read()
    return body, time.perf_counter() - t


def browser_times(base: str, path: str, repeat: int) -> dict:
    from playwright.sync_api import sync_playwright

    out: dict = {}
    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=CHROMIUM, args=["--headless=new", "--no-sandbox", "--disable-gpu"]
        )
        for label, profile in (("loopback", None), ("fast 3G", FAST_3G)):
            loads, fcps = [], []
            for _ in range(repeat):
                ctx = b.new_context(viewport={"width": 390, "height": 844}, service_workers="block")
                pg = ctx.new_page()
                cdp = ctx.new_cdp_session(pg)
                cdp.send("Network.enable")
                cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
                if profile:
                    cdp.send("Network.emulateNetworkConditions", profile)
                pg.goto(base + path, wait_until="load")
                nav = pg.evaluate("performance.getEntriesByType('navigation')[0].toJSON()")
                fcp = pg.evaluate(
                    "(performance.getEntriesByName('first-contentful-paint')[0] || {startTime: NaN}).startTime"
                )
                loads.append(nav["loadEventEnd"] / 1000)
                fcps.append(fcp / 1000)
                ctx.close()
            out[label] = {
                "load s (median)": statistics.median(loads),
                "first paint s (median)": statistics.median(fcps),
            }
        b.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", default=os.environ.get("NRRULES_BUILD_DIR"))
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    build_dir = live.ensure_build(args.build_dir)
    server = live.start_server(build_dir, threads=4, env={"NRRULES_PRELOAD": "1"})
    base = server.base
    try:
        for name, pick in (
            ("break every subroutine, access both cards", break_all),
            ("no rez, no breaks", no_rez_no_break),
        ):
            url, n = finished_url(base, live.post_json, pick)
            body, cold = fetch(base + url)
            warm = statistics.median(fetch(base + url)[1] for _ in range(args.repeat))
            print(f"finished two-ice run ({name}; {n} decisions):")
            print(
                f"  HTML bytes            {len(body):>8}  ({len(body) / 1024:.1f} KB; gzip {len(gzip.compress(body, 6))})"
            )
            print(f"  server render s       {cold:8.3f} first, {warm:.3f} again (median of {args.repeat})")
            for label, t in browser_times(base, url, args.repeat).items():
                print(
                    f"  Chromium {label:9}     load {t['load s (median)']:.3f} s, first paint {t['first paint s (median)']:.3f} s"
                )
    finally:
        server.stop()


if __name__ == "__main__":
    main()
