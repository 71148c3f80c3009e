"""Benchmark: the MCP server's tool calls, through the SDK's own client, over stdio and HTTP.

    python bench/mcp_calls.py --build-dir DIR [--repeat 20]

DIR is a build with card data (`nrrules build --source ../shared/cr && nrrules build --cards
../shared/nrdb/v2`). For each transport (`nrrules mcp` spawned over stdio; `nrrules mcp --http`
on a free loopback port) it prints the time to start and connect, then per call the median and
p90 in ms of --repeat calls after one warm-up: a search (rotating questions), a rule with its
sub-rules, a card with its rulings, a run started from card names, one engine decision, and the
bytes of each answer's text (what an assistant reads).
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

CLI = [sys.executable, "-c", "from webapp.cli import main; main()"]
QUESTIONS = [
    "when can the runner jack out",
    "runner has no cards in hand and takes net damage",
    "can the corp rez ice during a run",
    "how many clicks does the corp get",
    "what happens when an agenda is stolen",
]
RUN = {"server": "remote1", "ice": ["Ice Wall"], "content": "Hostile Takeover", "rig": ["Corroder"]}


async def measure(session: ClientSession, repeat: int) -> None:
    start = await session.call_tool("engine_start", RUN)
    token = start.structured_content["token"]
    decision = start.structured_content["decisions"][0]["id"]
    calls = {
        "search": lambda i: ("search", {"query": QUESTIONS[i % len(QUESTIONS)]}),
        "rule 6.9.4+": lambda i: ("rule", {"ref": "6.9.4+"}),
        "card Corroder": lambda i: ("card", {"name": "Corroder"}),
        "engine_start": lambda i: ("engine_start", {**RUN, "seed": i}),
        "engine_decide": lambda i: ("engine_decide", {"token": token, "decisions": [decision]}),
    }
    for label, make in calls.items():
        times, size = [], 0
        for i in range(repeat + 1):
            name, args = make(i)
            t0 = time.perf_counter()
            result = await session.call_tool(name, args)
            elapsed = time.perf_counter() - t0
            assert not result.is_error, result.content[0].text
            size = len(result.content[0].text.encode())
            if i:
                times.append(elapsed * 1000)
        times.sort()
        p90 = times[min(len(times) - 1, int(len(times) * 0.9))]
        print(
            f"  {label:<16} median {statistics.median(times):7.1f} ms   p90 {p90:7.1f} ms   {size:7,} bytes"
        )


async def over_stdio(build_dir: str, repeat: int) -> None:
    params = StdioServerParameters(command=CLI[0], args=[*CLI[1:], "mcp", "--build-dir", build_dir])
    t0 = time.perf_counter()
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                await session.list_tools()
                print(f"stdio: start, connect and list tools {time.perf_counter() - t0:6.2f} s")
                await measure(session, repeat)


async def over_http(url: str, repeat: int) -> None:
    async with streamable_http_client(url) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await measure(session, repeat)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    build_dir = str(Path(args.build_dir).expanduser())

    anyio.run(over_stdio, build_dir, args.repeat)

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [*CLI, "mcp", "--http", "--port", str(port), "--build-dir", build_dir]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if proc.poll() is not None or time.perf_counter() - t0 > 120:
                    raise SystemExit("the HTTP server did not start") from None
                time.sleep(0.1)
        print(f"http: start until listening {time.perf_counter() - t0:6.2f} s")
        anyio.run(over_http, f"http://127.0.0.1:{port}/mcp", args.repeat)
    finally:
        proc.terminate()
        proc.wait(timeout=20)


if __name__ == "__main__":
    main()
