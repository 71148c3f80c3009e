"""Offline use and the static export, measured (issue 14). Prints numbers; asserts nothing.

* bytes stored in the browser for one saved version (Cache Storage, as Chromium counts it);
* time to save it on Chrome DevTools' "Fast 3G" profile (CDP network emulation: 562.5 ms RTT,
  ~1.44 Mbit/s down), and on the loopback without emulation;
* client-side search latency for 20 queries in Chromium (the saved copy's index), p50/p95/max,
  and the one-off cost of loading and parsing the pack;
* `nrrules export` of every version: wall and CPU seconds, files, bytes;
* a plain static file server (Python's http.server) on exported rule pages beside the app
  (gunicorn) on the same pages, requests per second (wrk, 16 connections, gzip accepted).

Usage: python bench/offline.py [--build-dir DIR] [--seconds 5] [--skip-export]
       python bench/offline.py --export-only [--repeat 3] [--build-dir DIR]
(--export-only: only the export, run --repeat times, each with the load average beside it: on a
shared machine wall time follows the load, so report the range.)
Needs Debian's chromium and Playwright (as the browser tests do); wrk for throughput.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import importlib.util
import os
import resource
import shutil
import statistics
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from webapp import liveserver as live

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("NRRULES_CHROMIUM", "/usr/bin/chromium")
QUERIES = [
    "jack out", "6.9.4c", "paw", "brain damage", "Diesel", "etr", "rez ice", "trash cost",
    "can the runner jack out before approaching the first ice", "agenda points", "face up",
    "step_jack_out_choice", "hq", "multi-access", "unique", "sabotage", "forced encounter",
    "how many cards in the starting hand", "jak out", "expose",
]  # fmt: skip
FAST_3G = {"offline": False, "latency": 562.5, "downloadThroughput": 1.6 * 1024 * 1024 / 8 * 0.9,
           "uploadThroughput": 750 * 1024 / 8 * 0.9}  # fmt: skip


def _bench_http():
    spec = importlib.util.spec_from_file_location("bench_http", ROOT / "bench" / "http_load.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def browser_numbers(base: str) -> dict:
    from playwright.sync_api import sync_playwright

    out: dict = {}
    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=CHROMIUM, args=["--headless=new", "--no-sandbox", "--disable-gpu"]
        )
        for label, profile in (("loopback", None), ("fast 3G", FAST_3G)):
            # Page-level network emulation does not reach a service worker's own fetches: with
            # the worker blocked, the page fetches (and is throttled) itself.
            ctx = b.new_context(
                viewport={"width": 390, "height": 844}, service_workers="block" if profile else "allow"
            )
            pg = ctx.new_page()
            pg.goto(base + "/r/6.9.4c")
            if profile:
                cdp = ctx.new_cdp_session(pg)
                cdp.send("Network.enable")
                cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
                cdp.send("Network.emulateNetworkConditions", profile)
            meta = pg.evaluate("NROffline.save(document.body.dataset.version, document.body.dataset.pack)")
            out[f"save s ({label})"] = meta["ms"] / 1000
            if label == "loopback":
                out["stored bytes"] = pg.evaluate(
                    """async () => { let n = 0; for (const k of await caches.keys()) { const c = await caches.open(k);
                       for (const r of await c.keys()) n += (await (await c.match(r)).arrayBuffer()).byteLength; } return n; }"""
                )
                out["storage.estimate usage"] = pg.evaluate("navigator.storage.estimate().then(e => e.usage)")
                t1 = pg.evaluate("performance.now()")
                timings = pg.evaluate(
                    """async (qs) => { const t0 = performance.now(); const ix = await NROffline.load();
                       const load = performance.now() - t0; const out = [];
                       for (const q of qs) { const a = performance.now(); ix.search(q, 10); out.push(performance.now() - a); }
                       const warm = []; for (const q of qs) { const a = performance.now(); ix.search(q, 10); warm.push(performance.now() - a); }
                       return {load, first: out, warm}; }""",
                    QUERIES,
                )
                del t1
                out["index load+parse ms"] = timings["load"]
                first = sorted(timings["first"])
                out["search ms p50 (first run)"] = statistics.median(first)
                out["search ms p95 (first run)"] = first[int(0.95 * (len(first) - 1))]
                out["search ms max (first run)"] = first[-1]
                out["search ms p50 (again)"] = statistics.median(timings["warm"])
            ctx.close()
        b.close()
    return out


def export_numbers(build_dir: str, target: Path) -> dict:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(
        [str(ROOT / ".venv" / "bin" / "nrrules"), "export", str(target), "--build-dir", build_dir],
        check=True,
        cwd=ROOT,
    )
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    files = sum(1 for p in target.rglob("*") if p.is_file())
    size = sum(p.stat().st_size for p in target.rglob("*") if p.is_file())
    return {
        "export wall s": wall,
        "export CPU s": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
        "export files": files,
        "export MB": size / 1e6,
    }


def export_only(build_dir: str, repeat: int) -> None:
    for i in range(repeat):
        tmp = Path(tempfile.mkdtemp(prefix="nrrules-bench-export-"))
        try:
            load = os.getloadavg()[0]
            r = export_numbers(build_dir, tmp / "site")
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        print(
            f"export {i + 1}: {r['export wall s']:.1f} s wall, {r['export CPU s']:.1f} CPU-s, "
            f"{r['export files']:,} files, {r['export MB']:.1f} MB; load average {load:.1f} before, "
            f"{os.getloadavg()[0]:.1f} after (2 CPUs shared with other work)"
        )


def throughput(app_base: str, site: Path, seconds: int) -> dict:
    bh = _bench_http()
    from rules_index.store import Library

    doc = Library.open(os.environ["NRRULES_BUILD_DIR"]).document()
    paths = [f"/id/{n.id}" for n in doc.nodes[::37]][:50]

    class Quiet(http.server.SimpleHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as any real static server

        def log_message(self, *args):
            pass

    class Server(http.server.ThreadingHTTPServer):
        def handle_error(self, request, client_address):
            pass  # wrk hangs up at the end of its run

    server = Server(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    static_base = f"http://127.0.0.1:{server.server_address[1]}"
    run = bh.run_wrk if shutil.which("wrk") else bh.run_python
    try:
        app = run(app_base, [(p, None) for p in paths], seconds, 16)
        # the static server answers /id/x with a redirect to /id/x/: ask for the file directly
        static = run(static_base, [(p + "/", None) for p in paths], seconds, 16)
    finally:
        server.shutdown()
        server.server_close()
    return {
        "app rule pages req/s": app["rps"],
        "app p99 ms": app["p99"],
        "static (python http.server) req/s": static["rps"],
        "static p99 ms": static["p99"],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build-dir", default=None)
    ap.add_argument("--seconds", type=int, default=5)
    ap.add_argument("--skip-export", action="store_true")
    ap.add_argument("--export-only", action="store_true", help="only time `nrrules export`")
    ap.add_argument("--repeat", type=int, default=3, help="exports to time with --export-only")
    args = ap.parse_args()
    build_dir = live.ensure_build(args.build_dir)
    os.environ["NRRULES_BUILD_DIR"] = build_dir
    if args.export_only:
        export_only(build_dir, args.repeat)
        return
    server = live.start_server(build_dir, workers=2, env={"NRRULES_PRELOAD": "1"})
    base = server.base
    results: dict = {}
    tmp = Path(tempfile.mkdtemp(prefix="nrrules-bench-export-"))
    try:
        results.update(browser_numbers(base))
        if not args.skip_export:
            site = tmp / "site"
            results.update(export_numbers(build_dir, site))
            results.update(throughput(base, site, args.seconds))
    finally:
        server.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"load average at the end: {os.getloadavg()[0]:.1f} (2 CPUs shared with other work)")
    for key, value in results.items():
        print(f"{key:36s} {value:,.2f}" if isinstance(value, float) else f"{key:36s} {value:,}")


if __name__ == "__main__":
    main()
