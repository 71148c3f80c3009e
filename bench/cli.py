"""CLI start-up benchmark: how long a person waits for `nrrules` at the terminal.

    python bench/cli.py                      # 10 runs each, the build in NRRULES_BUILD_DIR (else a new one)
    python bench/cli.py --runs 20 --build-dir ~/.cache/nrrules/build

Runs, in rounds (so that a busy machine slows every command alike), `python -c pass`,
`nrrules --help`, `nrrules rule 6.9.4c` and `nrrules search "when can the runner jack out"`, each
a fresh process, and prints each one's median and best wall-clock time, and its median as a
ratio to `python -c pass` measured in the same run (the ratio is the figure to compare on a
busy machine). Targets on a quiet machine: --help 0.15 s, rule 0.25 s, search 0.6 s.

Python's bytecode cache is on, as on a user's machine (in a temporary PYTHONPYCACHEPREFIX, so
the tree stays clean, even where PYTHONDONTWRITEBYTECODE is set), and one uncounted round
fills it first.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from webapp.liveserver import ensure_build

BIN = Path(sys.executable).parent
COMMANDS = [
    ("python -c pass", [sys.executable, "-c", "pass"], None),
    ("nrrules --help", [str(BIN / "nrrules"), "--help"], 0.15),
    ("nrrules rule 6.9.4c", [str(BIN / "nrrules"), "rule", "6.9.4c"], 0.25),
    (
        'nrrules search "when can the runner jack out"',
        [str(BIN / "nrrules"), "search", "when can the runner jack out"],
        0.6,
    ),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=10, help="runs of each command (default 10)")
    ap.add_argument("--build-dir", default=os.environ.get("NRRULES_BUILD_DIR"))
    args = ap.parse_args()
    build_dir = ensure_build(args.build_dir)
    with tempfile.TemporaryDirectory(prefix="nrrules-pycache-") as pycache:
        env = {**os.environ, "NRRULES_BUILD_DIR": build_dir, "PYTHONPYCACHEPREFIX": pycache}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        times: dict[str, list[float]] = {name: [] for name, _, _ in COMMANDS}
        for round_ in range(args.runs + 1):
            for name, cmd, _ in COMMANDS:
                t = time.perf_counter()
                done = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                if round_:  # the first round fills the bytecode cache
                    times[name].append(time.perf_counter() - t)
                if done.returncode != 0:
                    err = done.stderr.decode(errors="replace")
                    raise SystemExit(f"{name} exited {done.returncode}: {err}")
    base = statistics.median(times[COMMANDS[0][0]])
    print(f"{'command':<48} {'median':>8} {'best':>8} {'x python':>9}  target (quiet machine)")
    for name, _, target in COMMANDS:
        median = statistics.median(times[name])
        goal = f"<= {target:.2f} s" if target else ""
        print(f"{name:<48} {median:7.3f}s {min(times[name]):7.3f}s {median / base:8.1f}x  {goal}")
    print(f"({args.runs} runs each, in rounds; load average {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
