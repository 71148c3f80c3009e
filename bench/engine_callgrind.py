"""Engine benchmark by instruction count: the CPU instructions one complete run of
`bench/engine_runs.py` costs (its boards, its player, `push()` choosing from `legal_decisions()`),
counted by valgrind's callgrind. Unlike the clock, the count does not depend on what else the
machine runs, so old and new code compare on a shared machine (issue 10).

Runs itself under `valgrind --tool=callgrind` with instrumentation off, warms up (parsing the CR,
a few runs), counts `--runs` runs only, and prints instructions per run for each board.

    .venv/bin/python bench/engine_callgrind.py [--board rig] [--runs 30] [--version 26.03]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _count(board: str, runs: int, version: str) -> int:
    """Instructions counted for `runs` runs of `board` (valgrind runs this file with --child)."""
    with tempfile.TemporaryDirectory(prefix="nrrules-callgrind-") as tmp:
        out = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--instr-atstart=no",
                f"--callgrind-out-file={tmp}/callgrind.out",
                sys.executable,
                __file__,
                "--child",
                "--board",
                board,
                "--runs",
                str(runs),
                "--version",
                version,
            ],
            capture_output=True,
            text=True,
            check=True,
        )
    m = re.search(r"Collected : (\d+)", out.stderr)
    if m is None:
        raise SystemExit(f"error: no instruction count in valgrind's output:\n{out.stderr[-2000:]}")
    return int(m.group(1))


def _child(board: str, runs: int, version: str) -> None:
    sys.path.insert(0, str(HERE))
    from engine_runs import BOARDS, CR_DIR, one_run_in_place

    from scraper import parse_html

    path = CR_DIR / f"cr-{version}.html"
    doc = parse_html(path.read_bytes(), str(path))
    make, params, _ = BOARDS[board]
    b = make()
    for _ in range(3):
        one_run_in_place(doc, b, params)
    toggle = ["callgrind_control", "-i"]
    subprocess.run([*toggle, "on", str(os.getpid())], capture_output=True, check=True)
    for _ in range(runs):
        one_run_in_place(doc, b, params)
    subprocess.run([*toggle, "off", str(os.getpid())], capture_output=True, check=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--board", choices=("rig", "simple", "both"), default="both")
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--version", default="26.03")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        _child(args.board, args.runs, args.version)
        return
    if not (shutil.which("valgrind") and shutil.which("callgrind_control")):
        raise SystemExit("error: valgrind (with callgrind_control) is not installed")
    import engine  # which engine the child runs (the same interpreter, paths and environment)

    print(f"engine: {engine.NATIVE_STATUS}")
    for board in ("rig", "simple") if args.board == "both" else (args.board,):
        n = _count(board, args.runs, args.version)
        print(
            f"CR {args.version} [{board}]: {n // args.runs:,} instructions per complete run "
            f"(push() choosing from legal_decisions(); {args.runs} runs, callgrind)"
        )


if __name__ == "__main__":
    main()
