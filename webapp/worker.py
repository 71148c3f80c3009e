"""The gunicorn worker class production runs: gunicorn's ``gthread`` worker, except that a worker
takes its next new connection only once the one it took before has had its first request
answered.

    gunicorn -w 3 -k webapp.worker.ThreadWorker --threads 1 ... "webapp:create_app()"

Why: every gthread worker polls the one listening socket, and a stock worker accepts whenever
its main loop runs, however many requests it has queued. Connections that open together (a
proxy's keep-alive pool filling up, a page's parallel requests, a benchmark's 32 clients) then
mostly land on the worker that woke first: on the 2-core bench 31 of 32 keep-alive connections
sat on one worker, 1 on another and none on the third, so that worker's queue (31 requests deep)
made the p99 while the others idled.

Here a worker holds at most ``--threads`` new connections whose first request is not answered
yet; it stops listening until one is. A worker with a long queue answers late, so it takes new
connections slowly, and an idle one takes them at once: persistent connections spread evenly,
short ones (phones) go to the worker that can start on them soonest, and no connection waits for
a busy worker to empty its whole queue. Nothing else changes: kept-alive connections are served
as before, and while no worker listens a new connection waits in the kernel's accept queue.

A response whose app says ``Connection: close`` (the 413 of a body too large, whose unread rest
would otherwise be taken for the next request) closes its connection: gunicorn drops the app's
hop-by-hop headers and decides keep-alive itself, so the worker tells gunicorn's response to
close, and gunicorn then says ``Connection: close`` on the wire.

The hooks used (``load_wsgi``, ``enqueue_req``, ``finish_request``, ``set_accept_enabled``) are those of the
pinned gunicorn (pyproject.toml); ``tests/test_worker.py`` runs the real server.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from gunicorn.workers.gthread import ThreadWorker as _GThreadWorker

__all__ = ["WORKER_CLASS", "ThreadWorker"]

WORKER_CLASS = "webapp.worker.ThreadWorker"  # gunicorn's -k value


class ThreadWorker(_GThreadWorker):
    """gthread that takes a new connection only while fewer than ``threads`` of the connections
    it took have their first request unanswered. Runs in the worker's main (event loop) thread
    only, so the set needs no lock."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fresh: set = set()  # accepted connections whose first request is not answered yet

    def load_wsgi(self) -> None:
        super().load_wsgi()
        self.wsgi = _closing(self.wsgi)

    def set_accept_enabled(self, enabled: bool) -> None:
        super().set_accept_enabled(enabled and len(self.fresh) < self.cfg.threads)

    def enqueue_req(self, conn) -> None:
        if not conn.initialized:  # accepted just now (or deferred before its first byte)
            self.fresh.add(conn)
            if len(self.fresh) >= self.cfg.threads:
                self.set_accept_enabled(False)
        super().enqueue_req(conn)

    def finish_request(self, conn, fs) -> None:
        self.fresh.discard(conn)
        super().finish_request(conn, fs)  # may hand the connection straight back (enqueue_req)
        self.set_accept_enabled(self.alive and self.nr_conns < self.worker_connections)


def _closing(app: Callable[..., Iterable[bytes]]) -> Callable[..., Iterable[bytes]]:
    """`app`, telling gunicorn to close the connection after a response that says
    ``Connection: close`` (gunicorn's `start_response` is a method of its response object)."""

    def wsgi(environ: dict, start_response: Callable[..., Any]) -> Iterable[bytes]:
        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            if any(k.lower() == "connection" and v.lower() == "close" for k, v in headers):
                force_close = getattr(getattr(start_response, "__self__", None), "force_close", None)
                if force_close is not None:
                    force_close()
            return start_response(status, headers, exc_info)

        return app(environ, start)

    return wsgi
