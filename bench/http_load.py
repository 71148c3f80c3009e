"""HTTP benchmark: a real gunicorn server on loopback and a concurrent client.

    python bench/http_load.py                      # 32 connections, 10 s per scenario
    python bench/http_load.py --duration 5 --client python
    python bench/http_load.py --only step steps    # just the engine scenarios
    python bench/http_load.py --cold               # the first searches after a server starts

Prints requests per second and p50/p99 latency for a rule page, a card page and card search
(/api/cards, 8 queries in turn; card data is built into the bench build if missing), a search (one hot query, and a
rotating mix of queries) and an engine step (the same request again and again, as retries and
reloads send it, and, with the server's caches off, a step in each of 50 sessions in turn, each
replayed from its token: the worst case), then the bytes a phone downloads to show one rule
against the official single-page CR. Targets on a 2-core machine: rule page >= 800 req/s,
search >= 400 req/s, p99 <= 50 ms. The client runs on the same machine as the server, so both
share the CPUs; numbers are for comparing runs, not absolute truths.

The client is `wrk` when installed (apt-get install wrk), else a Python thread pool with
keep-alive connections. Traffic goes to 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from itsdangerous import URLSafeSerializer

from webapp import liveserver as live
from webapp.tokens import SALT

ROOT = Path(__file__).resolve().parent.parent
SECRET_KEY = os.environ.get("SECRET_KEY", "bench-key-of-at-least-32-bytes-long")
OFFICIAL_PAGE = ROOT.parent / "shared" / "cr" / "cr-26.03.html"
# Card search as the board editor and the search box send it: whole names, prefixes typed so
# far, forgiving spellings, words of a ruling's question.
CARD_QUERIES = [
    "Snare!",
    "sn@re",
    "corr",
    "ice wall",
    "hermes",
    "end the run",
    "take the tag",
    "bypass funhouse",
]
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


SCENARIOS = {
    "rule": "one rule page",
    "rules": "6 rule pages in turn",
    "search": "one search",
    "searches": "40 searches in turn",
    "step": "one engine decision, posted again and again (a retry, a reload: the answer is kept)",
    "steps": "a decision in each of --sessions sessions in turn, caches off: each one replays its "
    "session from the token (the worst case)",
    "card": "one card page (/c/funhouse, with rulings and keyword links)",
    "cards": "card search, 8 queries in turn (/api/cards?q=: names, prefixes, words of rulings)",
    "nocache": "40 searches with the search cache off",
    "hostile": "legitimate traffic (rule pages, searches, an engine step) alone, then beside "
    "--hostile-connections sending slow-regex inputs, huge and forged tokens and unique queries",
    "weight": "bytes a phone downloads for one rule",
    "rss": "memory (not in the default set): one worker, --rss-requests hostile UNIQUE requests "
    "(searches with limit=50, big boards, long lookups, forged tokens, unknown cards, judge "
    "queries); the worker's RSS every --rss-every requests",
}
DEFAULT_SCENARIOS = [k for k in SCENARIOS if k != "rss"]


def ensure_cards(build_dir: str) -> None:
    """The card scenarios need card data beside the rules: build it when it is missing."""
    from rules_index.store import Library, LibraryError

    try:
        Library.open(build_dir).cards()
    except LibraryError:
        from rules_index.cards import build_cards

        print(f"building the card data into {build_dir} ...", file=sys.stderr)
        build_cards(str(ROOT.parent / "shared" / "nrdb" / "v2"), Path(build_dir))


def ensure_judge(build_dir: str) -> None:
    """The memory scenario sends judge queries: build the judges' excerpt when it is missing."""
    from rules_index.judge import build_judge
    from rules_index.store import Library

    library = Library.open(build_dir)
    if library.judge() is None:
        print(f"building the judges' documents into {build_dir} ...", file=sys.stderr)
        names = {c.name for n in library.document().nodes for c in n.cards}
        build_judge(
            str(ROOT.parent / "shared" / "judge" / "judge-reference-excerpt.html"), Path(build_dir), names
        )


def start_live(
    build_dir: str, workers: int, worker_class: str, threads: int, caches: bool
) -> live.LiveServer:
    """gunicorn as in production (preload, the documented request-line limit), with or without
    the search, session and engine-answer caches."""
    env = {"NRRULES_PRELOAD": "1", "SECRET_KEY": SECRET_KEY}
    if not caches:  # the search, session and engine-answer caches off: every request works
        env["NRRULES_SEARCH_CACHE"] = env["NRRULES_SESSION_CACHE"] = "0"
    return live.start_server(
        build_dir,
        workers=workers,
        threads=threads,
        worker_class=worker_class,
        env=env,
        args=["--log-level", "warning", "--limit-request-line", "8190"],
    )


def start_server(
    build_dir: str, workers: int, worker_class: str, threads: int, caches: bool
) -> tuple[subprocess.Popen, str]:
    server = start_live(build_dir, workers, worker_class, threads, caches)
    return server.proc, server.base


def workers_cpu(server: live.LiveServer) -> float:
    """CPU seconds (user + system) the server's workers have used so far."""
    total = 0
    for pid in server.worker_pids():
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


def run_measured(run, server: live.LiveServer, reqs: list[Request], seconds: int, conns: int) -> dict:
    """`run`, plus the server's CPU per request (robust on a shared machine, where latency is
    not) and how the connections are spread over the workers halfway through (a worker holding
    more than its share queues more, which is what p99 sees)."""
    spread: dict[int, int] = {}

    def sample() -> None:
        time.sleep(seconds / 2)
        spread.update(server.connections_per_worker())

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    cpu = workers_cpu(server)
    result = run(server.base, reqs, seconds, conns)
    cpu = workers_cpu(server) - cpu
    sampler.join()
    result["cpu_ms"] = cpu * 1000 / max(1.0, result["rps"] * seconds)
    result["spread"] = "/".join(str(n) for n in sorted(spread.values(), reverse=True))
    return result


def engine_step_requests(base: str, sessions: int) -> list[tuple[str, str]]:
    """(path, body) of one engine decision in each of `sessions` sessions (distinct seeds, so
    distinct tokens), each a few decisions into a run on a remote, so a step replays a
    realistic session when its position is not cached."""
    board = json.loads((ROOT / "webapp" / "examples" / "02-remote-agenda.json").read_text())
    out = []
    for seed in range(sessions):
        state = live.post_json(
            base,
            "/api/engine/sessions",
            {"board": board, "structure": "run", "params": {"server": "remote1"}, "seed": seed},
        )
        for _ in range(3):
            nxt = live.post_json(
                base,
                f"/api/engine/sessions/{state['token']}/decisions",
                {"decision": state["decisions"][0]["id"]},
            )
            if nxt["finished"]:
                break
            state = nxt
        decision = state["decisions"][0]["id"]
        out.append((f"/api/engine/sessions/{state['token']}/decisions", json.dumps({"decision": decision})))
    return out


def legit_mix(steps: list[Request]) -> list[Request]:
    """What judges and players send: rule pages, searches as typed, and an engine step."""
    pages = ["/r/6.9.4c", "/r/6.9", "/r/1.2.1", "/id/rule_card_precedence", "/r/10.6.1", "/r/7.2"]
    searches = ["/api/search?q=" + urllib.request.quote(q) for q in QUERIES[:20]]
    mix: list[Request] = []
    for i in range(20):
        mix += [(pages[i % len(pages)], None), (searches[i], None)]
        if steps and i % 4 == 0:
            mix.append(steps[0])
    return mix


def hostile_mix(seed: int = 16, unique: int = 3000) -> list[Request]:
    """Issue 16's hostile requests: inputs that made the rule-number regex cubic, session
    tokens that are huge (garbage, and a zip bomb signed with the server's key, as anyone holding
    a leaked or default key could), and unique searches that fill the caches."""
    bait = urllib.request.quote("1" + " " * 298 + "!")
    signer = URLSafeSerializer(SECRET_KEY, salt=SALT)
    board = json.loads((ROOT / "webapp" / "examples" / "01-hq-ice-wall.json").read_text())
    bomb = signer.dumps({"v": "26.03", "s": "run", "b": {**board, "pad": "0" * 5_500_000}, "d": [], "r": 0})
    garbage = "".join(random.Random(seed).choices("abcdefghijklmnopqrstuvwxyz0123456789-_", k=7900))
    fixed = [
        (f"/api/lookup?q={bait}", None),
        (f"/api/search?q={bait}", None),
        (f"/r/{bait}", None),
        (f"/step?s={bomb}", None),
        (f"/api/engine/sessions/{bomb}", None),
        (f"/step?s={garbage}", None),
    ]
    rng = random.Random(seed)
    words = [w for q in QUERIES for w in q.split()]
    out: list[Request] = []
    for i in range(unique):
        q = f"{rng.choice(words)} {rng.choice(words)} {rng.randrange(10**6)}"
        out.append((f"/api/search?limit=50&q={urllib.request.quote(q)}", None))
        if i % 3 == 0:
            out.append(fixed[(i // 3) % len(fixed)])
    return out


def run_beside(run, base: str, legit: list[Request], hostile: list[Request], seconds: int, conns: int,
               hostile_conns: int) -> tuple[dict, dict]:  # fmt: skip
    """Legitimate and hostile clients at once; each result counts only its own requests."""
    out: dict[str, dict] = {}
    t = threading.Thread(target=lambda: out.update(hostile=run(base, hostile, seconds, hostile_conns)))
    t.start()
    legit_result = run(base, legit, seconds, conns)
    t.join()
    return legit_result, out["hostile"]


# ----- memory -----------------------------------------------------------------------------------


def big_board(i: int, cards: int = 160, text: int = 150) -> dict:
    """A valid board of about 180 KB (six zones of `cards` named cards with text), unique to `i`."""

    def zone(side: str, name: str) -> list[dict]:
        return [{"name": f"{side}{i}-{name}-{k}", "text": (f"u{i} " * 60)[:text]} for k in range(cards)]

    sides = {side: {z: zone(side, z) for z in ("hand", "deck", "discard")} for side in ("corp", "runner")}
    return {"version": 1, **sides}


def unique_hostile(i: int, rng: random.Random, words: list[str], signer: URLSafeSerializer) -> Request:
    """The i-th request of the memory scenario; no two are the same. Per 20: 5 searches
    (limit=50, a made-up word each, which also feeds the stemmer), 2 rules-only and card
    searches, 2 long lookups (the slow-regex shape), 3 forged tokens (garbage, and wrong-typed
    fields signed with the server's key), 2 unknown cards, 2 judge queries, a rule history
    miss, a unique 180 KB board started as a session, a unique small board started as a
    session, and a validation of a unique big board."""
    kind = i % 20
    q = urllib.request.quote(f"{rng.choice(words)} {rng.choice(words)} {rng.choice(words)}{i}")
    if kind < 5:
        return (f"/api/search?limit=50&q={q}", None)
    if kind == 5:
        return (f"/api/search?limit=50&source=rules&q={q}", None)
    if kind == 6:
        return (f"/api/cards?limit=50&q={q}", None)
    if kind == 7:
        return ("/api/lookup?q=" + urllib.request.quote(f"{i}." + " " * 290 + "!"), None)
    if kind == 8:
        return ("/r/" + urllib.request.quote(f"{i % 10}." + "1 " * 140 + str(i)), None)
    if kind == 9:
        garbage = "".join(rng.choices("abcdefghijklmnopqrstuvwxyz0123456789-_", k=2000))
        return (f"/api/engine/sessions/.{garbage}", None)
    if kind == 10:
        forged = signer.dumps({"v": 5, "s": ["run"], "b": {"i": i}, "d": "x", "r": "0"})
        return (f"/api/engine/sessions/{forged}", None)
    if kind == 11:
        forged = signer.dumps(
            {"v": "26.03", "s": "run", "b": {"version": 1, "corp": {"credits": -i}}, "d": []}
        )
        return (f"/step?s={forged}", None)
    if kind == 12:
        return (f"/api/cards/{urllib.request.quote(f'no card {i} {rng.choice(words)}')}", None)
    if kind == 13:
        return (f"/c/{urllib.request.quote(f'unknown {rng.choice(words)} {i}')}", None)
    if kind in (14, 15):
        return (f"/api/judge/search?limit=50&q={q}", None)
    if kind == 16:
        return (f"/api/history/{urllib.request.quote(f'rule_{i}_{rng.choice(words)}')}", None)
    if kind == 17:
        body = {"board": big_board(i), "structure": "run", "params": {"server": "hq"}, "seed": i % 1000}
        return ("/api/engine/sessions", json.dumps(body))
    if kind == 18:
        board = {"version": 1, "corp": {"hand": [f"card {i} {k}" for k in range(20)]}}
        return (
            "/api/engine/sessions",
            json.dumps({"board": board, "structure": "run", "params": {"server": "rd"}}),
        )
    return ("/api/engine/validate", json.dumps({"board": big_board(i, cards=60)}))


def worker_pid(master: int) -> int | None:
    """The gunicorn master's one worker (its child process)."""
    try:
        children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    except OSError:
        return None
    return int(children[0]) if children else None


def rss_mb(pid: int | None) -> float:
    if pid is None:
        return float("nan")
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return float("nan")
    return int(re.search(r"^VmRSS:\s+(\d+) kB", status, re.M).group(1)) / 1024


def memory_run(build_dir: str, total: int, every: int, conns: int, threads: int) -> None:
    """One gunicorn worker as in production (preload, no --max-requests so nothing recycles it)
    and `conns` keep-alive connections sending `total` unique hostile requests; prints the
    worker's RSS at start and every `every` requests, and the statuses seen (a 5xx is a bug)."""
    server = live.start_server(
        build_dir,
        workers=1,
        threads=threads,
        env={"NRRULES_PRELOAD": "1", "SECRET_KEY": SECRET_KEY},
        args=["--log-level", "warning", "--limit-request-line", "8190", "--timeout", "120"],
    )
    host, port = server.base.removeprefix("http://").split(":")
    words = sorted({w for q in QUERIES + CARD_QUERIES for w in q.split() if w.isalpha()})
    signer = URLSafeSerializer(SECRET_KEY, salt=SALT)
    lock = threading.Lock()
    state = {"next": 0, "done": 0}
    codes: dict[int, int] = {}
    marks: list[tuple[int, float]] = []
    samples: list[tuple[int, float, float, int | None]] = []
    start = time.monotonic()
    pid = worker_pid(server.proc.pid)
    samples.append((0, 0.0, rss_mb(pid), pid))
    print(f"\nmemory: 1 worker (pid {pid}), {conns} connections, {total} unique hostile requests", flush=True)
    print(f"{'requests':>9} {'seconds':>8} {'req/s':>7} {'RSS MB':>8}  statuses so far", flush=True)

    def client(k: int) -> None:
        rng = random.Random(k)
        conn = http.client.HTTPConnection(host, int(port), timeout=60)
        while True:
            with lock:
                i = state["next"]
                if i >= total:
                    break
                state["next"] += 1
            path, body = unique_hostile(i, rng, words, signer)
            headers = {"Accept-Encoding": "gzip"}
            if body is not None:
                headers["Content-Type"] = "application/json"
            try:
                conn.request("POST" if body is not None else "GET", path, body=body, headers=headers)
                resp = conn.getresponse()
                resp.read()
                code = resp.status
            except (OSError, http.client.HTTPException):
                code = 0  # the connection failed: counted, and a new one opened
                conn.close()
                conn = http.client.HTTPConnection(host, int(port), timeout=60)
            with lock:
                codes[code] = codes.get(code, 0) + 1
                state["done"] += 1
                if state["done"] % every == 0:
                    marks.append((state["done"], time.monotonic() - start))
        conn.close()

    workers = [threading.Thread(target=client, args=(k,)) for k in range(conns)]
    try:
        for t in workers:
            t.start()
        reported = 0
        while any(t.is_alive() for t in workers) or reported < len(marks):
            time.sleep(0.2)
            while reported < len(marks):
                n, secs = marks[reported]
                reported += 1
                now = worker_pid(server.proc.pid)
                samples.append((n, secs, rss_mb(now), now))
                with lock:
                    seen = ", ".join(f"{c or 'failed'}: {m}" for c, m in sorted(codes.items()))
                moved = "" if now == pid else f"  (worker is now pid {now})"
                print(f"{n:9d} {secs:8.0f} {n / secs:7.0f} {samples[-1][2]:8.1f}  {seen}{moved}", flush=True)
    finally:
        server.stop()
    rss = [s[2] for s in samples]
    tail = rss[len(rss) // 2 :]
    print(
        f"RSS: {rss[0]:.0f} MB at start, {max(rss):.0f} MB at most, {rss[-1]:.0f} MB at the end; "
        f"second half {min(tail):.0f}-{max(tail):.0f} MB (target: at most 400 MB, levelling off); "
        f"5xx: {sum(m for c, m in codes.items() if c >= 500)}, failed connections: {codes.get(0, 0)}"
    )


# ----- clients ----------------------------------------------------------------------------------


Request = tuple[str, "str | None"]  # (path, JSON body to POST, or None for a GET)


def run_wrk(base: str, reqs: list[Request], seconds: int, conns: int) -> dict:
    cmd = ["wrk", "-t1", f"-c{conns}", f"-d{seconds}s", "--latency", "--timeout", "5s"]
    script = None
    if len(reqs) == 1 and reqs[0][1] is None:  # no Lua on the hot path: it costs the client CPU
        cmd += ["-H", "Accept-Encoding: gzip", base + reqs[0][0]]
    else:
        lua = [
            "local paths = {" + ",".join(json.dumps(p) for p, _ in reqs) + "}",
            "local bodies = {" + ",".join(json.dumps(b or "") for _, b in reqs) + "}",
            "local reqs, i = {}, 0",
            'local get = {["Accept-Encoding"] = "gzip"}',
            'local post = {["Accept-Encoding"] = "gzip", ["Content-Type"] = "application/json"}',
            # format every request once, so the client spends its CPU sending, not formatting
            "init = function()",
            "  for k = 1, #paths do",
            '    if bodies[k] == "" then reqs[k] = wrk.format("GET", paths[k], get)',
            '    else reqs[k] = wrk.format("POST", paths[k], post, bodies[k]) end',
            "  end",
            "end",
            "request = function() i = i % #reqs + 1; return reqs[i] end",
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


def run_python(base: str, reqs: list[Request], seconds: int, conns: int) -> dict:
    host, port = base.removeprefix("http://").split(":")
    deadline = time.monotonic() + seconds
    latencies: list[list[float]] = [[] for _ in range(conns)]
    errors = [0] * conns

    def worker(k: int) -> None:
        conn = http.client.HTTPConnection(host, int(port), timeout=10)
        i = k
        while time.monotonic() < deadline:
            path, body = reqs[i % len(reqs)]
            i += 1
            headers = {"Accept-Encoding": "gzip"}
            if body is not None:
                headers["Content-Type"] = "application/json"
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


def statuses(base: str, reqs: list[Request]) -> list[str]:
    """Each request's status and time, once, on a fresh connection (the hostile ones must be
    refused fast, never 5xx)."""
    out = []
    for path, _ in reqs:
        t0 = time.perf_counter()
        try:
            with urllib.request.urlopen(base + path, timeout=10) as resp:
                code = resp.status
        except urllib.error.HTTPError as exc:
            code = exc.code
        out.append(f"{path.split('?')[0][:24]} {code} {(time.perf_counter() - t0) * 1000:.0f}")
    return out


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


COLD_QUERIES = ["when can the runner jack out", "what happens when the runner takes net damage"]


def _timed_get(base: str, path: str) -> float:
    t = time.perf_counter()
    with urllib.request.urlopen(base + path, timeout=120) as resp:
        resp.read()
        if resp.status != 200:
            raise SystemExit(f"{path}: HTTP {resp.status}")
    return time.perf_counter() - t


def _start_cli_server(build_dir: str, log: Path) -> live.LiveServer:
    """`nrrules serve` (Werkzeug, as a user runs it) of this tree on a free port, once
    /api/versions answers."""
    port = live.free_port()
    cmd = [sys.executable, "-c", "from webapp.cli import main; main()", "serve", "--port", str(port)]
    env = {**os.environ, "NRRULES_BUILD_DIR": build_dir, "SECRET_KEY": SECRET_KEY}
    env.pop("NRRULES_PRELOAD", None)
    with open(log, "w") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    server = live.LiveServer(proc, f"http://127.0.0.1:{port}", log)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            _timed_get(server.base, "/api/versions")
            return server
        except OSError:
            time.sleep(0.05)
    server.stop()
    raise SystemExit(f"nrrules serve did not start:\n{log.read_text(errors='replace')[-2000:]}")


def cold_run(build_dir: str, starts: int) -> None:
    """Start each server `starts` times; each time, once it answers /api/versions (the moment a
    user could first reach it), time the first /api/search of a question, a second question,
    and the first again (the search cache's answer). Prints the medians and the start time."""
    kinds = {
        "nrrules serve": lambda log: _start_cli_server(build_dir, log),
        "gunicorn, NRRULES_PRELOAD=1": lambda log: live.start_server(
            build_dir, env={"NRRULES_PRELOAD": "1", "SECRET_KEY": SECRET_KEY}, log=log
        ),
        "gunicorn, no preload": lambda log: live.start_server(
            build_dir, env={"NRRULES_PRELOAD": "0", "SECRET_KEY": SECRET_KEY}, log=log
        ),
    }
    paths = ["/api/search?q=" + urllib.request.quote(q) for q in COLD_QUERIES]
    print(
        f"cold start: first searches after the server answers, median of {starts} starts, load "
        f"{os.getloadavg()[0]:.1f}"
    )
    print(f"{'server':<30} {'start':>8} {'1st search':>11} {'2nd (other)':>12} {'1st again':>10}")
    with tempfile.TemporaryDirectory(prefix="nrrules-cold-") as tmp:
        for name, start in kinds.items():
            rows = []
            for i in range(starts):
                t = time.perf_counter()
                server = start(Path(tmp) / f"{i}.log")
                up = time.perf_counter() - t
                try:
                    rows.append((up, *(_timed_get(server.base, p) for p in (*paths, paths[0]))))
                finally:
                    server.stop()
            med = [statistics.median(col) * 1000 for col in zip(*rows, strict=True)]
            print(f"{name:<30} {med[0]:7.0f}ms {med[1]:9.0f}ms {med[2]:10.0f}ms {med[3]:8.0f}ms")
    print("target: the first search <= 200 ms (as fast as the hundredth)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", default=os.environ.get("NRRULES_BUILD_DIR"))
    ap.add_argument("--duration", type=int, default=10, help="seconds per scenario (default 10)")
    ap.add_argument("--connections", type=int, default=32)
    ap.add_argument(
        "--workers", type=int, default=(os.cpu_count() or 2) + 1, help="gunicorn workers (default cores + 1)"
    )
    ap.add_argument(
        "--worker-class",
        default=live.WORKER_CLASS,
        choices=[live.WORKER_CLASS, "gthread", "sync"],
        help=f"gunicorn worker class (default {live.WORKER_CLASS}, production's: gthread that takes a "
        "new connection only when it can start on it, so keep-alive connections spread evenly; "
        "gthread: gunicorn's own, for comparison)",
    )
    ap.add_argument(
        "--threads",
        type=int,
        default=1,
        help="threads per gthread worker (default 1: the work is CPU-bound Python, and a second "
        "thread only interleaves two requests under the GIL, which lengthens the tail)",
    )
    ap.add_argument("--client", choices=["auto", "wrk", "python"], default="auto")
    ap.add_argument(
        "--only",
        nargs="+",
        choices=SCENARIOS,
        help="run only these scenarios (default all): "
        + ", ".join(f"{k} = {v}" for k, v in SCENARIOS.items()),
    )
    ap.add_argument(
        "--hostile-connections",
        type=int,
        default=8,
        help="connections sending hostile requests beside --connections legitimate ones (default 8)",
    )
    ap.add_argument(
        "--sessions",
        type=int,
        default=50,
        help="engine sessions for the uncached step scenario (default 50)",
    )
    ap.add_argument("--rss-requests", type=int, default=100_000, help="requests of the rss scenario")
    ap.add_argument("--rss-every", type=int, default=10_000, help="print the worker's RSS every N requests")
    ap.add_argument("--rss-connections", type=int, default=4, help="connections of the rss scenario")
    ap.add_argument(
        "--cold",
        action="store_true",
        help="only time the first searches after a server starts (nrrules serve, gunicorn with and "
        "without NRRULES_PRELOAD), --starts times each",
    )
    ap.add_argument("--starts", type=int, default=3, help="server starts of --cold (default 3)")
    args = ap.parse_args()
    if args.cold:
        cold_run(live.ensure_build(args.build_dir), args.starts)
        return
    if not 1 <= args.duration <= 120:
        raise SystemExit("--duration must be 1-120 seconds")
    client = args.client
    if client == "auto":
        client = "wrk" if shutil.which("wrk") else "python"
    run = run_wrk if client == "wrk" else run_python
    build_dir = live.ensure_build(args.build_dir)
    wanted = set(args.only or DEFAULT_SCENARIOS)
    if wanted & {"card", "cards", "rss"}:
        ensure_cards(build_dir)
    if "rss" in wanted:
        ensure_judge(build_dir)
        memory_run(build_dir, args.rss_requests, args.rss_every, args.rss_connections, args.threads)
        wanted.discard("rss")
        if not wanted:
            return

    print(
        f"nrrules HTTP bench: gunicorn {args.workers} {args.worker_class} workers"
        f"{f' x {args.threads} threads' if args.worker_class != 'sync' else ''}, "
        f"{args.connections} connections, {args.duration}s per scenario, client {client}, "
        f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}"
    )
    rows = []
    hostile_statuses: list[str] = []
    weight = None
    steps: list[Request] = []
    server = start_live(build_dir, args.workers, args.worker_class, args.threads, caches=True)
    base = server.base
    try:
        scenarios: list[tuple[str, str, list[Request]]] = [
            ("rule", "rule page /r/6.9.4c", [("/r/6.9.4c", None)]),
            (
                "rules",
                "rule pages (6 rotating)",
                [
                    (p, None)
                    for p in [
                        "/r/6.9.4c",
                        "/r/6.9",
                        "/r/1.2.1",
                        "/id/rule_card_precedence",
                        "/r/10.6.1",
                        "/r/7.2",
                    ]
                ],
            ),
            ("card", "card page /c/funhouse", [("/c/funhouse", None)]),
            (
                "cards",
                "card search, 8 queries",
                [("/api/cards?q=" + urllib.request.quote(q), None) for q in CARD_QUERIES],
            ),
            ("search", "search, one query", [("/api/search?q=jack%20out", None)]),
            (
                "searches",
                "search, 40 queries",
                [("/api/search?q=" + urllib.request.quote(q), None) for q in QUERIES],
            ),
        ]
        if wanted & {"step", "steps", "hostile"}:
            steps = engine_step_requests(base, args.sessions)
            scenarios.append(("step", "engine step, same request again", steps[:1]))
        for key, name, reqs in scenarios:
            if key not in wanted:
                continue
            run(base, reqs, 2, args.connections)  # warm every worker, as a running server is
            rows.append((name, run_measured(run, server, reqs, args.duration, args.connections)))
        if "hostile" in wanted:
            legit, hostile, hc = legit_mix(steps), hostile_mix(), args.hostile_connections
            run(base, legit, 2, args.connections)
            rows.append(("legit mix, alone", run(base, legit, args.duration, args.connections)))
            beside, bad = run_beside(run, base, legit, hostile, args.duration, args.connections, hc)
            rows.append((f"legit mix, beside {hc} hostile", beside))
            rows.append((f"hostile ({hc} conns; errors=refused)", bad))
            hostile_statuses = statuses(
                base, [r for r in hostile if "limit=50" not in r[0]][:6] + hostile[:2]
            )
        if "weight" in wanted:
            weight = phone_bytes(base, "/r/6.9.4c")
    finally:
        server.stop()
    if wanted & {"nocache", "steps"}:
        server = start_live(build_dir, args.workers, args.worker_class, args.threads, caches=False)
        try:
            cold = [
                (
                    "nocache",
                    "search, 40 queries, no cache",
                    [("/api/search?q=" + urllib.request.quote(q), None) for q in QUERIES],
                ),
                ("steps", f"engine step, {len(steps)} sessions, no cache", steps),
            ]
            for key, name, reqs in cold:
                if key in wanted:
                    run(server.base, reqs, 2, args.connections)
                    rows.append((name, run_measured(run, server, reqs, args.duration, args.connections)))
        finally:
            server.stop()

    print(
        f"\n{'scenario':36} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7} {'cpu ms/req':>10}  "
        "connections per worker"
    )
    for name, r in rows:
        cpu = f"{r['cpu_ms']:10.2f}" if "cpu_ms" in r else f"{'':10}"
        print(
            f"{name:36} {r['rps']:9.0f} {r['p50']:8.1f} {r['p99']:8.1f} {r['errors']:7d} {cpu}  {r.get('spread', '')}"
        )
    print(
        "(cpu ms/req: the workers' CPU time per request, the figure to compare on a busy machine; "
        "connections per worker: halfway through, busiest first)"
    )
    if hostile_statuses:
        print("\nhostile requests answer (status, ms): " + "; ".join(hostile_statuses))
    print(f"load average at the end: {os.getloadavg()[0]:.1f} ({os.cpu_count()} CPUs shared with other work)")
    if weight is None:
        return
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
