"""The production gunicorn worker class (`webapp.worker`) on a real server: a worker holds at most
``--threads`` new connections whose first request is unanswered, so connections opened together
spread over the workers, and a connection that sends nothing stops only its own worker from
taking more (the others take them), never the requests of other clients."""

from __future__ import annotations

import socket
import time
import urllib.request

from webapp.liveserver import LiveServer, live_server
from webapp.worker import WORKER_CLASS


def _wait_accepted(server: LiveServer, total: int, timeout: float = 30) -> dict[int, int]:
    deadline = time.monotonic() + timeout
    while True:
        counts = server.connections_per_worker()
        if sum(counts.values()) >= total or time.monotonic() > deadline:
            return counts
        time.sleep(0.05)


def _get(sock: socket.socket, path: str = "/api/versions") -> bytes:
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n".encode())
    sock.settimeout(10)
    return sock.recv(64)


def test_connections_opened_together_land_one_per_worker(build_dir):
    with live_server(build_dir, workers=3, threads=1, worker_class=WORKER_CLASS) as server:
        socks = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(3)]
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
        # a browser's preconnect, a stalled phone
        silent = socket.create_connection(("127.0.0.1", server.port))
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


def _read_response(sock: socket.socket, timeout: float = 10) -> tuple[bytes, bool]:
    """Everything the server sends until it closes the connection (or `timeout` passes), and
    whether it closed it."""
    sock.settimeout(timeout)
    data = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            return data, False
        if not chunk:
            return data, True
        data += chunk
    return data, False


def test_a_body_too_large_is_a_413_that_closes_the_connection(build_dir):
    with live_server(build_dir, workers=1, threads=2, worker_class=WORKER_CLASS) as server:
        for sent in (1000, 300 * 1024):  # the client stops early, or sends the whole body
            sock = socket.create_connection(("127.0.0.1", server.port))
            try:
                head = (
                    "POST /api/engine/sessions HTTP/1.1\r\nHost: test\r\nConnection: keep-alive\r\n"
                    f"Content-Type: application/json\r\nContent-Length: {300 * 1024}\r\n\r\n"
                )
                sock.sendall(head.encode() + b" " * sent)
                data, closed = _read_response(sock)
            finally:
                sock.close()
            head_end = data.find(b"\r\n\r\n")
            headers = data[:head_end].decode("latin-1").lower().split("\r\n")
            assert headers[0].startswith("http/1.1 413"), data[:200]
            assert "connection: close" in headers, headers
            assert b'"status":413' in data[head_end:].replace(b" ", b"")
            assert closed, "the server kept the connection open after a 413"
        # and the server goes on answering
        with urllib.request.urlopen(server.base + "/api/versions", timeout=5) as resp:
            assert resp.status == 200
