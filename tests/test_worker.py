"""The production gunicorn worker class (`webapp.worker`) on a real server: a worker holds at most
``--threads`` new connections whose first request is unanswered, so connections opened together
spread over the workers, and a connection that sends nothing stops only its own worker from
taking more (the others take them), never the requests of other clients."""

from __future__ import annotations

import socket
import time
import urllib.request
from pathlib import Path

from webapp.liveserver import LiveServer, live_server
from webapp.worker import WORKER_CLASS


def _worker_pids(server: LiveServer) -> list[int]:
    master = server.proc.pid
    return [int(p) for p in Path(f"/proc/{master}/task/{master}/children").read_text().split()]


def _established(port: int) -> set[str]:
    """Socket inodes of the server side of established loopback connections to ``port``."""
    out = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, state, inode = fields[1], fields[3], fields[9]
        if state == "01" and int(local.split(":")[1], 16) == port:
            out.add(inode)
    return out


def _connections_per_worker(server: LiveServer) -> dict[int, int]:
    """Worker pid -> how many established connections to the server it has accepted."""
    port = int(server.base.rsplit(":", 1)[1])
    inodes = _established(port)
    counts = {}
    for pid in _worker_pids(server):
        held = 0
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                target = fd.readlink().name
            except OSError:  # closed meanwhile
                continue
            if target.startswith("socket:[") and target[8:-1] in inodes:
                held += 1
        counts[pid] = held
    return counts


def _wait_accepted(server: LiveServer, total: int, timeout: float = 30) -> dict[int, int]:
    deadline = time.monotonic() + timeout
    while True:
        counts = _connections_per_worker(server)
        if sum(counts.values()) >= total or time.monotonic() > deadline:
            return counts
        time.sleep(0.05)


def _get(sock: socket.socket, path: str = "/api/versions") -> bytes:
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n".encode())
    sock.settimeout(10)
    return sock.recv(64)


def test_connections_opened_together_land_one_per_worker(build_dir):
    with live_server(build_dir, workers=3, threads=1, worker_class=WORKER_CLASS) as server:
        port = int(server.base.rsplit(":", 1)[1])
        socks = [socket.create_connection(("127.0.0.1", port)) for _ in range(3)]
        try:
            counts = _wait_accepted(server, 3)
            assert len(counts) == 3
            assert sorted(counts.values()) == [1, 1, 1], counts
            for sock in socks:  # and each is served once it speaks
                assert _get(sock).startswith(b"HTTP/1.1 200")
        finally:
            for sock in socks:
                sock.close()


def test_a_connection_that_sends_nothing_holds_up_no_other_client(build_dir):
    with live_server(build_dir, workers=2, threads=1, worker_class=WORKER_CLASS) as server:
        port = int(server.base.rsplit(":", 1)[1])
        silent = socket.create_connection(("127.0.0.1", port))  # a browser's preconnect, a stalled phone
        try:
            assert sum(_wait_accepted(server, 1).values()) == 1
            # gunicorn's worker thread waits 5 s for a new connection's first bytes; requests
            # queued behind it on the same worker would wait as long
            for _ in range(6):
                with urllib.request.urlopen(server.base + "/api/versions", timeout=4) as resp:
                    assert resp.status == 200
            assert _get(silent).startswith(b"HTTP/1.1 200")  # and it is served when it speaks
        finally:
            silent.close()
