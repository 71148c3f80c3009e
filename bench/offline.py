"""Offline use and the static export, measured (issue 14). Prints numbers; asserts nothing.

* bytes stored in the browser for one saved version (Cache Storage, as Chromium counts it);
* time to save it on Chrome DevTools' "Fast 3G" profile (CDP network emulation: 562.5 ms RTT,
  ~1.44 Mbit/s down), and on the loopback without emulation;
* client-side search latency for 20 queries in Chromium (the saved copy's index), p50/p95/max,
  and the one-off cost of loading and parsing the pack;
* the saved copy's size per version: the offline pack (rules and search index) and the reading
  pack (cards with their official rulings), raw and gzipped, and the pages saved as they are
  (the judges' documents, the version's changes page);
* time to first answer on a slow network ("Slow 3G"-like: 2 s RTT, 50 KB/s, applied to the page
  and to the service worker's own fetches through its CDP target): without a saved copy, and with
  one for the first page and the next ones (the worker answers from the saved copy after
  sw.js SAVED_WAIT, then at once while the network stays slow);
* `nrrules export` of every version: wall and CPU seconds, files, bytes;
* a plain static file server (Python's http.server) on exported rule pages beside the app
  (gunicorn) on the same pages, requests per second (wrk, 16 connections, gzip accepted).

* the offline stepper (issue 35, --stepper): the in-browser engine's files (Pyodide, the engine
  zip, the CR document), raw and as downloaded (gzip), and its start time in Chromium until it
  answers a first position: cold (nothing cached) on the loopback and on a phone profile (Fast
  3G and 4x CPU slowdown), and from the saved copy (offline) without and with the CPU slowdown.

Usage: python bench/offline.py [--build-dir DIR] [--seconds 5] [--skip-export]
       python bench/offline.py --stepper [--build-dir DIR] [--repeat 3]   (the offline stepper only)
       python bench/offline.py --slow-only [--build-dir DIR]   (sizes and the slow network only)
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
            meta = pg.evaluate(
                "NROffline.save(document.body.dataset.version, document.body.dataset.pack, document.body.dataset.reading)"
            )
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


SLOW = {"offline": False, "latency": 2000, "downloadThroughput": 50 * 1024, "uploadThroughput": 50 * 1024}
SLOW_PAGES = ["/id/rule_sec_run_run_ends_phase", "/id/step_jack_out_choice", "/c/snare", "/id/sec_rez"]


def pack_sizes(base: str, versions: list[str]) -> dict:
    """Bytes of each version's offline pack and reading pack (raw and gzipped) and of the pages saved."""
    import gzip
    import json
    import urllib.request

    def get(path: str) -> bytes:
        with urllib.request.urlopen(base + path, timeout=120) as resp:
            return resp.read()

    out: dict = {}
    for v in versions:
        pack = get(f"/offline/{v}.json")
        t0 = time.perf_counter()
        reading = get(f"/offline/{v}/reading.json")
        made = time.perf_counter() - t0
        pages = sum(len(get(u)) for u in json.loads(reading)["pages"])
        out[f"CR {v} rules pack KB (gzip)"] = (
            f"{len(pack) / 1e3:,.0f} ({len(gzip.compress(pack)) / 1e3:,.0f})"
        )
        out[f"CR {v} cards+rulings KB (gzip)"] = (
            f"{len(reading) / 1e3:,.0f} ({len(gzip.compress(reading)) / 1e3:,.0f})"
        )
        out[f"CR {v} saved pages KB"] = f"{pages / 1e3:,.0f}"
        out[f"CR {v} reading pack made s"] = made
    return out


def _throttle_worker(browser) -> None:
    """The slow profile on the service worker's own fetches (page-level emulation does not reach
    them): through the worker's CDP target, attached from the browser's session."""
    import json

    session = browser.new_browser_cdp_session()
    workers = [t for t in session.send("Target.getTargets")["targetInfos"] if t["type"] == "service_worker"]
    for target in workers:
        sid = session.send("Target.attachToTarget", {"targetId": target["targetId"], "flatten": False})[
            "sessionId"
        ]
        for i, (method, params) in enumerate(
            [
                ("Network.enable", {}),
                ("Network.setCacheDisabled", {"cacheDisabled": True}),
                ("Network.emulateNetworkConditions", SLOW),
            ]
        ):
            message = json.dumps({"id": i + 1, "method": method, "params": params})
            session.send("Target.sendMessageToTarget", {"sessionId": sid, "message": message})


def slow_network_numbers(base: str) -> dict:
    """Seconds from a page's navigation to its rule or card heading on the slow profile, without
    a saved copy (the network's answer) and with one."""
    from playwright.sync_api import sync_playwright

    out: dict = {}
    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=CHROMIUM, args=["--headless=new", "--no-sandbox", "--disable-gpu"]
        )
        for label in ("no saved copy", "saved copy"):
            ctx = b.new_context(viewport={"width": 390, "height": 844})
            pg = ctx.new_page()
            pg.goto(base + "/")
            if label == "saved copy":
                pg.locator("#offline-ctl .save-offline").click()
                pg.wait_for_selector("#offline-ctl[data-saved]", timeout=120_000)
            pg.wait_for_function("navigator.serviceWorker.controller !== null")  # registered either way
            _throttle_worker(b)
            cdp = ctx.new_cdp_session(pg)
            cdp.send("Network.enable")
            cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
            cdp.send("Network.emulateNetworkConditions", SLOW)
            for i, path in enumerate(SLOW_PAGES):
                t0 = time.perf_counter()
                pg.goto(base + path, wait_until="commit", timeout=120_000)
                pg.wait_for_selector("article h1", timeout=120_000)
                why = pg.evaluate("document.body.dataset.savedWhy || 'network'")
                out[f"slow net, {label}: page {i + 1} s ({why})"] = time.perf_counter() - t0
            ctx.close()
        b.close()
    return out


PHONE_CPU = 4  # Chrome DevTools' "4x slowdown", its mid-tier mobile preset
STEPPER_BOARD = ROOT / "engine" / "examples" / "rig-run.json"


def stepper_sizes(base: str, version: str) -> dict:
    """The offline stepper's files: bytes stored, and bytes downloaded (gzip accepted)."""
    import json
    import urllib.request

    with urllib.request.urlopen(f"{base}/offline/{version}/stepper.json") as resp:
        info = json.load(resp)
    raw = wire = 0
    rows = {}
    for url in [*info["files"], info["document"]]:
        req = urllib.request.Request(base + url, headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(req) as resp:
            body = resp.read()
            gz = resp.headers.get("Content-Encoding") == "gzip"
        import gzip

        size = len(gzip.decompress(body)) if gz else len(body)
        raw += size
        wire += len(body)
        rows[url.split("?")[0].rsplit("/", 1)[-1]] = (size, len(body))
    out: dict = {
        f"stepper file {name} KB (sent)": f"{a / 1e3:,.0f} ({b / 1e3:,.0f})" for name, (a, b) in rows.items()
    }
    out["stepper stored MB"] = raw / 1e6
    out["stepper download MB (gzip)"] = wire / 1e6
    return out


def _boot_ms(page) -> dict:
    """Milliseconds until the worker has started and stepped the page's session once."""
    return page.evaluate(
        """async () => { const t0 = performance.now(); const ms = await NROfflineStepper.boot();
           const token = document.querySelector('form#decisions input[name=s]').value;
           await NROfflineStepper.take(token); return {ready: ms, total: performance.now() - t0}; }"""
    )


def stepper_numbers(base: str, repeat: int) -> dict:
    """Start times of the in-browser engine in Chromium (medians of `repeat` fresh contexts)."""
    import json

    from playwright.sync_api import sync_playwright

    token = live.post_json(
        base,
        "/api/engine/sessions",
        {"board": json.loads(STEPPER_BOARD.read_text()), "structure": "run", "params": {"server": "remote1"}},
    )["token"]
    runs: dict[str, list[dict]] = {}
    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=CHROMIUM, args=["--headless=new", "--no-sandbox", "--disable-gpu"]
        )
        for _ in range(repeat):
            for label, network, cpu in (
                ("cold, loopback", None, 1),
                ("cold, phone (Fast 3G, 4x CPU)", FAST_3G, PHONE_CPU),
            ):
                ctx = b.new_context(viewport={"width": 390, "height": 844}, service_workers="block")
                pg = ctx.new_page()
                pg.goto(f"{base}/step?s={token}")
                cdp = ctx.new_cdp_session(pg)
                cdp.send("Network.enable")
                cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
                if network:
                    cdp.send("Network.emulateNetworkConditions", network)
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu})
                runs.setdefault(label, []).append(_boot_ms(pg))
                ctx.close()
            ctx = b.new_context(viewport={"width": 390, "height": 844})
            pg = ctx.new_page()
            pg.goto(f"{base}/step?s={token}")
            pg.wait_for_function("() => navigator.serviceWorker.controller !== null")
            t0 = time.perf_counter()
            pg.locator("#offstep .save-stepper").click()
            pg.wait_for_selector("#offstep[data-saved]", timeout=300_000)
            runs.setdefault("save (loopback) s", []).append({"total": (time.perf_counter() - t0) * 1000})
            for label, cpu in (("saved copy, offline", 1), ("saved copy, offline, 4x CPU", PHONE_CPU)):
                fresh = ctx.new_page()  # a new page: a new worker, its files from the saved copy
                fresh.goto(f"{base}/step?s={token}")
                ctx.set_offline(True)
                cdp = ctx.new_cdp_session(fresh)
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu})
                runs.setdefault(label, []).append(_boot_ms(fresh))
                ctx.set_offline(False)
                fresh.close()
            ctx.close()
        b.close()
    out: dict = {}
    for label, rs in runs.items():
        if label.endswith(" s"):
            out[f"stepper {label}"] = statistics.median(r["total"] for r in rs) / 1000
            continue
        out[f"stepper start s, {label}"] = statistics.median(r["total"] for r in rs) / 1000
        if "ready" in rs[0]:
            out[f"  of which Pyodide loaded s, {label}"] = (
                statistics.median(r["ready"]["pyodide"] for r in rs) / 1000
            )
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
    ap.add_argument(
        "--repeat", type=int, default=3, help="exports to time (--export-only), starts (--stepper)"
    )
    ap.add_argument("--slow-only", action="store_true", help="only the sizes and the slow network")
    ap.add_argument("--stepper", action="store_true", help="only the offline stepper (size, start time)")
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
        from rules_index.store import Library

        if args.stepper:
            results.update(stepper_sizes(base, Library.open(build_dir).latest))
            results.update(stepper_numbers(base, args.repeat))
            return
        results.update(pack_sizes(base, [i.version for i in Library.open(build_dir).versions()]))
        results.update(slow_network_numbers(base))
        if args.slow_only:
            return
        results.update(browser_numbers(base))
        if not args.skip_export:
            site = tmp / "site"
            results.update(export_numbers(build_dir, site))
            results.update(throughput(base, site, args.seconds))
    finally:
        server.stop()
        shutil.rmtree(tmp, ignore_errors=True)
        report(results)


def report(results: dict) -> None:
    print(f"load average at the end: {os.getloadavg()[0]:.1f} (2 CPUs shared with other work)")
    for key, value in results.items():
        shown = (
            f"{value:,.2f}"
            if isinstance(value, float)
            else (f"{value:,}" if isinstance(value, int) else value)
        )
        print(f"{key:36s} {shown}")


if __name__ == "__main__":
    main()
