"""A real gunicorn serving a build directory on loopback, for the tests and benchmarks that need
real HTTP (browser tests, fault tests, `bench/`): one way to start it, wait until it answers and
stop it, instead of a copy in each of them.

    with live_server(build_dir, workers=2, threads=4, log=path) as server:
        urllib.request.urlopen(server.base + "/api/versions")

It lives in the package (not in tests/ or bench/) so both import it without sys.path changes.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from rules_index.store import Library, LibraryError, build

from .worker import WORKER_CLASS

ROOT = Path(__file__).resolve().parent.parent
CR_DIR = Path(os.environ.get("NRRULES_CR_DIR", ROOT.parent / "shared" / "cr"))


class ServerDidNotStart(RuntimeError):
    """The server exited or did not answer in time; the message ends with its log."""


def ensure_build(build_dir: str | Path | None) -> str:
    """`build_dir` if it holds a build (None: the default build directory), else a new build of
    the CR files in ../shared/cr (or NRRULES_CR_DIR) in a temporary directory."""
    try:
        return str(Library.open(build_dir).build_dir)
    except LibraryError:
        pass
    target = tempfile.mkdtemp(prefix="nrrules-build-")
    print(f"building the CR into {target} ...", file=sys.stderr)
    build(str(CR_DIR), Path(target))
    return target


def post_json(base: str, path: str, body: dict) -> dict:
    """POST `body` as JSON to a live server and return its JSON answer."""
    req = urllib.request.Request(base + path, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as resp:
        return json.load(resp)


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now (another process may take it before it is bound)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class LiveServer:
    proc: subprocess.Popen
    base: str  # http://127.0.0.1:<port>
    log: Path | None

    @property
    def port(self) -> int:
        return int(self.base.rsplit(":", 1)[1])

    def worker_pids(self) -> list[int]:
        """The gunicorn master's worker processes now (Linux /proc)."""
        master = self.proc.pid
        try:
            return [int(p) for p in Path(f"/proc/{master}/task/{master}/children").read_text().split()]
        except OSError:
            return []

    def connections_per_worker(self) -> dict[int, int]:
        """Worker pid -> how many established client connections it holds now (Linux /proc):
        how evenly keep-alive connections are spread. Connections still waiting in the
        kernel's accept queue are in no worker's count."""
        inodes = set()
        for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
            fields = line.split()  # local address, state 01 = established, inode
            if fields[3] == "01" and int(fields[1].split(":")[1], 16) == self.port:
                inodes.add(fields[9])
        counts = {}
        for pid in self.worker_pids():
            held = 0
            try:
                fds = list(Path(f"/proc/{pid}/fd").iterdir())
            except OSError:  # the worker exited meanwhile
                continue
            for fd in fds:
                try:
                    target = fd.readlink().name
                except OSError:  # closed meanwhile
                    continue
                held += target.startswith("socket:[") and target[8:-1] in inodes
            counts[pid] = held
        return counts

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


def start_server(
    build_dir: str | Path,
    *,
    workers: int = 1,
    threads: int = 1,
    worker_class: str = WORKER_CLASS,
    env: Mapping[str, str] | None = None,
    args: Sequence[str] = (),
    log: Path | None = None,
    timeout: float = 60,
) -> LiveServer:
    """Start gunicorn (the production worker class, `webapp.worker`, unless `worker_class`
    names another) on a free loopback port serving `build_dir`, and return once
    ``/api/versions`` answers 200. `env` adds to (or overrides) the environment, which gets a
    test SECRET_KEY unless it names one; `args` go to gunicorn before the app; its output goes
    to `log` (or is discarded)."""
    port = free_port()
    full_env = {**os.environ, "NRRULES_BUILD_DIR": str(build_dir), **(env or {})}
    full_env.setdefault("SECRET_KEY", "nrrules-live-server-test-key-not-secret")
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
    ]
    if worker_class != "sync":
        cmd += ["--threads", str(threads)]
    # other gunicorns on this machine may hold the default control socket
    cmd += ["--no-control-socket", *args, "webapp:create_app()"]
    if log is not None:
        log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "w") if log is not None else open(os.devnull, "w") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=full_env, stdout=out, stderr=subprocess.STDOUT)
    server = LiveServer(proc, f"http://127.0.0.1:{port}", log)
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(server.base + "/api/versions", timeout=2) as resp:
                if resp.status == 200:
                    return server
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            server.stop()
            tail = log.read_text(errors="replace")[-3000:] if log is not None else "(no log kept)"
            raise ServerDidNotStart(f"gunicorn did not start on {server.base}:\n{tail}")
        time.sleep(0.2)


@contextlib.contextmanager
def live_server(build_dir: str | Path, **kwargs) -> Iterator[LiveServer]:
    """`start_server` as a context manager that always stops the server."""
    server = start_server(build_dir, **kwargs)
    try:
        yield server
    finally:
        server.stop()
