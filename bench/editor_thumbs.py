"""The board editor with a thumb (issue 35, issue 33's done-when scenario), measured. Prints
numbers; asserts nothing.

In headless Chromium at 390x844 against a real gunicorn serving a build with the card data:
build the Tollbooth + Ice Wall remote with Hostile Takeover in its root and the Corroder +
Gordian Blade rig with 6 credits by card names in the editor, then step the run to its end.
Printed: taps, page loads, screens of scrolling and characters typed, for building the board and
for stepping, and how the run ended. The counting is tests/editor_flow.py's (the same flow the
browser test asserts).

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

from editor_flow import Thumb, build_scenario, step_to_end  # noqa: E402
from playwright.sync_api import expect, sync_playwright  # noqa: E402

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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build-dir", help="a build with the card data (default: NRRULES_BUILD_DIR)")
    ap.add_argument("--base", help="measure this running server instead")
    ap.add_argument("--log", action="store_true", help="print every tap and typing to stderr")
    args = ap.parse_args()
    if args.base:
        out = measure(args.base.rstrip("/"), args.log)
    else:
        build = args.build_dir or os.environ.get("NRRULES_BUILD_DIR")
        if not build:
            sys.exit("give --build-dir (a build with --cards) or --base")
        with live.live_server(build) as srv:
            out = measure(srv.base, args.log)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
