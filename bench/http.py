# ruff: noqa: E402  (imports follow the sys.path fix below)
"""HTTP benchmark: a real gunicorn server on loopback and a concurrent client.

    python bench/http.py                      # 32 connections, 10 s per scenario
    python bench/http.py --duration 5 --client python

Prints requests per second and p50/p99 latency for a rule page, a search (one hot query, and a
rotating mix of queries) and an engine step, then the bytes a phone downloads to show one rule
against the official single-page CR. Targets on a 2-core machine: rule page >= 800 req/s,
search >= 400 req/s, p99 <= 50 ms. The client runs on the same machine as the server, so both
share the CPUs; numbers are for comparing runs, not absolute truths.

The client is `wrk` when installed (apt-get install wrk), else a Python thread pool with
keep-alive connections. Traffic goes to 127.0.0.1 only.
"""

from __future__ import annotations

import os
import sys

# This file is named http.py: keep its folder off sys.path so `import http.client` is the stdlib.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]

import argparse
import gzip
import http.client
import json
import re
import shutil
import socket
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OFFICIAL_PAGE = ROOT.parent / "shared" / "cr" / "cr-26.03.html"
QUERIES = [
    "jack out",
    "trash cost",
    "rez",
    "advance agenda",
    "tag",
    "net damage",
    "breach hq",
    "steal",
    "paid ability window",
    "encounter ice",
    "bypass",
    "subroutine",
    "bad publicity",
    "trace",
    "core damage",
    "install",
    "recurring credits",
    "priority",
    "checkpoint",
    "diesel",
    "hosted",
    "expose",
    "derez",
    "archives",
    "r&d",
    "discard",
    "mulligan",
    "hand size",
    "link",
    "virus counter",
    "score area",
    "approach ice",
    "successful run",
    "access",
    "random",
    "reveal",
    "facedown",
    "corp turn",
    "runner turn",
    "draw",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ensure_build(build_dir: str | None) -> str:
    sys.path.insert(0, str(ROOT))
    from rules_index.store import Library, LibraryError, build

    try:
        lib = Library.open(build_dir)
        return str(lib.build_dir)
    except LibraryError:
        pass
    target = tempfile.mkdtemp(prefix="nrrules-bench-build-")
    print(f"building the CR into {target} ...", file=sys.stderr)
    build(str(ROOT.parent / "shared" / "cr"), Path(target))
    return target


def start_server(
    build_dir: str, workers: int, worker_class: str, threads: int, search_cache: bool
) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = dict(
        os.environ,
        NRRULES_BUILD_DIR=build_dir,
        NRRULES_PRELOAD="1",
        SECRET_KEY=os.environ.get("SECRET_KEY", "bench-key"),
    )
    if not search_cache:
        env["NRRULES_SEARCH_CACHE"] = "0"
    cmd = [
        sys.executable,
        "-m",
        "gunicorn",
        "-b",
        f"127.0.0.1:{port}",
        "-w",
        str(workers),
        "-k",
        worker_class,
        "--threads",
        str(threads),
        "--log-level",
        "warning",
        "--no-control-socket",
        "webapp:create_app()",
    ]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(base + "/api/versions", timeout=2):
                return proc, base
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise SystemExit("the server did not start") from None
            time.sleep(0.2)


def engine_step_request(base: str) -> tuple[str, str]:
    board = json.loads((ROOT / "webapp" / "examples" / "02-remote-agenda.json").read_text())
    body = json.dumps({"board": board, "structure": "run", "params": {"server": "remote1"}}).encode()
    req = urllib.request.Request(base + "/api/engine/sessions", body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as resp:
        state = json.load(resp)
    # Walk a few decisions in, so each benchmarked step replays a realistic session.
    for _ in range(3):
        decision = state["decisions"][0]["id"]
        req = urllib.request.Request(
            base + f"/api/engine/sessions/{state['token']}/decisions",
            json.dumps({"decision": decision}).encode(),
            {"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req) as resp:
            nxt = json.load(resp)
        if nxt["finished"]:
            break
        state = nxt
    decision = state["decisions"][0]["id"]
    return f"/api/engine/sessions/{state['token']}/decisions", json.dumps({"decision": decision})


# ----- clients ----------------------------------------------------------------------------------


def run_wrk(base: str, paths: list[str], seconds: int, conns: int, body: str | None) -> dict:
    cmd = ["wrk", "-t1", f"-c{conns}", f"-d{seconds}s", "--latency", "--timeout", "5s"]
    script = None
    if body is None and len(paths) == 1:  # no Lua on the hot path: it costs the client CPU
        cmd += ["-H", "Accept-Encoding: gzip", base + paths[0]]
    else:
        lua = ["local paths = {" + ",".join(json.dumps(p) for p in paths) + "}", "local i = 0"]
        if body is not None:
            lua += [
                'wrk.method = "POST"',
                f"wrk.body = {json.dumps(body)}",
                'wrk.headers["Content-Type"] = "application/json"',
            ]
        lua += [
            'wrk.headers["Accept-Encoding"] = "gzip"',
            "request = function() i = i % #paths + 1; return wrk.format(nil, paths[i]) end",
        ]
        with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
            f.write("\n".join(lua) + "\n")
            script = f.name
        cmd += ["-s", script, base]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    finally:
        if script:
            os.unlink(script)

    def ms(label: str) -> float:
        m = re.search(rf"^\s*{label}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
        value, unit = float(m.group(1)), m.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value

    errors = 0
    m = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if m:
        errors += int(m.group(1))
    m = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    if m:
        errors += sum(int(x) for x in m.groups())
    return {
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
        "p50": ms("50"),
        "p99": ms("99"),
        "errors": errors,
    }


def run_python(base: str, paths: list[str], seconds: int, conns: int, body: str | None) -> dict:
    host, port = base.removeprefix("http://").split(":")
    deadline = time.monotonic() + seconds
    latencies: list[list[float]] = [[] for _ in range(conns)]
    errors = [0] * conns

    def worker(k: int) -> None:
        conn = http.client.HTTPConnection(host, int(port), timeout=10)
        i = k
        headers = {"Accept-Encoding": "gzip"}
        if body is not None:
            headers["Content-Type"] = "application/json"
        while time.monotonic() < deadline:
            path = paths[i % len(paths)]
            i += 1
            t0 = time.perf_counter()
            try:
                conn.request("POST" if body is not None else "GET", path, body=body, headers=headers)
                resp = conn.getresponse()
                resp.read()
                if resp.status >= 400:
                    errors[k] += 1
            except (OSError, http.client.HTTPException):
                errors[k] += 1
                conn.close()
                conn = http.client.HTTPConnection(host, int(port), timeout=10)
                continue
            latencies[k].append((time.perf_counter() - t0) * 1000)
        conn.close()

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(conns)]
    start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - start
    flat = sorted(x for lat in latencies for x in lat)
    q = statistics.quantiles(flat, n=100) if len(flat) > 2 else [0.0] * 99
    return {"rps": len(flat) / elapsed, "p50": q[49], "p99": q[98], "errors": sum(errors)}


# ----- page weight ------------------------------------------------------------------------------


def phone_bytes(base: str, path: str) -> dict:
    def fetch(url: str) -> tuple[int, int, bytes]:
        req = urllib.request.Request(base + url, headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(req) as resp:
            wire = resp.read()
            body = gzip.decompress(wire) if resp.headers.get("Content-Encoding") == "gzip" else wire
            return len(wire), len(body), body

    wire, raw, html = fetch(path)
    total_wire, total_raw = wire, raw
    assets = re.findall(rb'(?:href|src)="(/static/[^"]+)"', html)
    for asset in dict.fromkeys(a.decode() for a in assets):
        w, r, _ = fetch(asset.replace("&amp;", "&"))
        total_wire += w
        total_raw += r
    lazy = re.search(rb'data-lib="([^"]+)"', html)
    lazy_wire = fetch(lazy.group(1).decode())[0] if lazy else 0
    return {
        "html_wire": wire,
        "html_raw": raw,
        "total_wire": total_wire,
        "total_raw": total_raw,
        "graph_lib_wire": lazy_wire,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", default=os.environ.get("NRRULES_BUILD_DIR"))
    ap.add_argument("--duration", type=int, default=10, help="seconds per scenario (default 10)")
    ap.add_argument("--connections", type=int, default=32)
    ap.add_argument(
        "--workers", type=int, default=(os.cpu_count() or 2) + 1, help="gunicorn workers (default cores + 1)"
    )
    ap.add_argument(
        "--worker-class", default="sync", choices=["sync", "gthread"], help="gunicorn worker class"
    )
    ap.add_argument("--threads", type=int, default=4, help="threads per gthread worker")
    ap.add_argument("--client", choices=["auto", "wrk", "python"], default="auto")
    args = ap.parse_args()
    if not 1 <= args.duration <= 120:
        raise SystemExit("--duration must be 1-120 seconds")
    client = args.client
    if client == "auto":
        client = "wrk" if shutil.which("wrk") else "python"
    run = run_wrk if client == "wrk" else run_python
    build_dir = ensure_build(args.build_dir)

    print(
        f"nrrules HTTP bench: gunicorn {args.workers} {args.worker_class} workers"
        f"{f' x {args.threads} threads' if args.worker_class == 'gthread' else ''}, "
        f"{args.connections} connections, {args.duration}s per scenario, client {client}, "
        f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}"
    )
    rows = []
    proc, base = start_server(build_dir, args.workers, args.worker_class, args.threads, search_cache=True)
    try:
        step_path, step_body = engine_step_request(base)
        scenarios = [
            ("rule page /r/6.9.4c", ["/r/6.9.4c"], None),
            (
                "rule pages (6 rotating)",
                ["/r/6.9.4c", "/r/6.9", "/r/1.2.1", "/id/rule_card_precedence", "/r/10.6.1", "/r/7.2"],
                None,
            ),
            ("search, one query", ["/api/search?q=jack%20out"], None),
            ("search, 40 queries", ["/api/search?q=" + urllib.request.quote(q) for q in QUERIES], None),
            ("engine step (POST)", [step_path], step_body),
        ]
        for name, paths, body in scenarios:
            run(base, paths, 1, args.connections, body)  # warm every worker, as a running server is
            rows.append((name, run(base, paths, args.duration, args.connections, body)))
        weight = phone_bytes(base, "/r/6.9.4c")
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    proc, base = start_server(build_dir, args.workers, args.worker_class, args.threads, search_cache=False)
    try:
        paths = ["/api/search?q=" + urllib.request.quote(q) for q in QUERIES]
        run(base, paths, 1, args.connections, None)
        rows.append(("search, 40 queries, no cache", run(base, paths, args.duration, args.connections, None)))
    finally:
        proc.terminate()
        proc.wait(timeout=10)

    print(f"\n{'scenario':34} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}")
    for name, r in rows:
        print(f"{name:34} {r['rps']:9.0f} {r['p50']:8.1f} {r['p99']:8.1f} {r['errors']:7d}")
    official = OFFICIAL_PAGE.stat().st_size if OFFICIAL_PAGE.exists() else 1_100_000
    print(
        f"\nbytes a phone downloads to show one rule (/r/6.9.4c, gzip, first visit):\n"
        f"  HTML {weight['html_wire']} B on the wire ({weight['html_raw']} B uncompressed); "
        f"with CSS, JS and icon {weight['total_wire']} B ({weight['total_raw']} B uncompressed)\n"
        f"  the official single page: {official} B uncompressed "
        f"({official / max(1, weight['total_wire']):.0f}x more than ours on the wire)\n"
        f"  the rule-graph library loads only when the graph is opened: +{weight['graph_lib_wire']} B"
    )


if __name__ == "__main__":
    main()
