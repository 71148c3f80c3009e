"""Where CR documents come from: a file, a folder of files, or a URL (with an HTTP cache)."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import select
import stat
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import ScrapeError

DEFAULT_URL = "https://rules.nullsignal.games/"
DEFAULT_TIMEOUT = 20.0
MAX_BYTES = 20 * 1024 * 1024  # no CR is anywhere near this; refuse absurd downloads


@dataclass(frozen=True)
class Source:
    name: str  # path or URL, used in every message
    data: bytes
    note: str | None = None  # e.g. "offline: using the cached copy from ..."


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "nrrules" / "http"


def is_url(spec: str) -> bool:
    return spec.startswith(("http://", "https://"))


def resolve(
    spec: str | None,
    cache_dir: Path | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    regular_only: bool = False,
) -> list[Source]:
    """Turn a --source argument into the documents it names (a folder gives several). With
    `regular_only` (the judges' documents) a FIFO or device is refused at once rather than read
    within the deadline and cap, and a file in a folder may not be a link leading out of it."""
    spec = spec or DEFAULT_URL
    if is_url(spec):
        return [fetch_url(spec, cache_dir or default_cache_dir(), timeout)]
    path = Path(spec).expanduser()
    if path.is_dir():
        files = sorted(
            p
            for p in path.iterdir()
            if p.suffix.lower() in (".html", ".htm") and (p.is_file() or (regular_only and p.exists()))
        )
        if not files:
            raise ScrapeError(str(path), "the folder contains no .html files")
        return [_read_file(p, timeout, regular_only, path if regular_only else None) for p in files]
    if not path.exists():
        raise ScrapeError(str(path), "no such file or folder")
    return [_read_file(path, timeout, regular_only)]


def _read_file(
    path: Path, timeout: float = DEFAULT_TIMEOUT, regular_only: bool = False, root: Path | None = None
) -> Source:
    try:
        what = "document" if regular_only else "CR document"
        data = read_bounded(path, MAX_BYTES, timeout, regular_only=regular_only, root=root, what=what)
        return Source(name=str(path), data=data)
    except PermissionError:
        raise ScrapeError(str(path), "permission denied") from None
    except IsADirectoryError:
        raise ScrapeError(str(path), "is a folder, not a file") from None
    except OSError as exc:
        raise ScrapeError(str(path), f"cannot be read ({exc.strerror or exc})") from None


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_bounded(
    path: Path,
    limit: int,
    timeout: float,
    *,
    regular_only: bool = False,
    root: Path | None = None,
    what: str = "CR document",
) -> bytes:
    """The bytes of a file, refusing more than `limit` bytes or a read lasting over `timeout` s.

    Works for anything a path can name: a regular file (its size is checked first), a device
    such as /dev/zero (stops at the cap) or a FIFO whose writer is slow or silent (stops at the
    deadline; a FIFO nobody writes to reads as empty). With `regular_only`, anything but a
    regular file is refused before a byte is read (a folder of sources has no business holding a
    FIFO or a device); with `root`, so is a path whose link leads out of that folder. `what`
    names the kind of file in messages ("card data file")."""
    name = str(path)
    if root is not None:
        real, base = Path(os.path.realpath(path)), Path(os.path.realpath(root))
        if real != base and base not in real.parents:
            raise ScrapeError(name, f"is a link leading out of {root}: refused")
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(errno.EISDIR, "is a directory", name)
        if regular_only and not stat.S_ISREG(st.st_mode):
            raise ScrapeError(name, f"is {_kind(st.st_mode)}, not a regular file: refused")
        if stat.S_ISREG(st.st_mode) and st.st_size > limit:
            raise ScrapeError(name, f"the file is {st.st_size} bytes, far larger than any {what}")
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        deadline = time.monotonic() + timeout
        chunks: list[bytes] = []
        total = 0
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not poller.poll(left * 1000):
                raise ScrapeError(name, f"reading it did not finish within {timeout:g} s")
            try:
                chunk = os.read(fd, 1 << 20)
            except BlockingIOError:
                continue
            if not chunk:
                return b"".join(chunks)
            total += len(chunk)
            if total > limit:
                raise ScrapeError(name, f"it holds more than {limit} bytes, far more than any {what}")
            chunks.append(chunk)
    finally:
        os.close(fd)


def read_source(path: Path, limit: int, root: Path | None = None, what: str = "source file") -> bytes:
    """A source file's bytes, safely: a regular file only (no FIFO, device, socket or folder),
    not a link leading out of `root`, at most `limit` bytes (the size is checked before reading).
    Every problem is one `ScrapeError` naming the file."""
    try:
        return read_bounded(path, limit, DEFAULT_TIMEOUT, regular_only=True, root=root, what=what)
    except FileNotFoundError:
        raise ScrapeError(str(path), "no such file") from None
    except PermissionError:
        raise ScrapeError(str(path), "permission denied") from None
    except IsADirectoryError:
        raise ScrapeError(str(path), "is a folder, not a file") from None
    except OSError as exc:
        raise ScrapeError(str(path), f"cannot be read ({exc.strerror or exc})") from None


MAX_JSON_DEPTH = 64  # levels of nesting; NetrunnerDB's records are 4 deep, a board about 6
MAX_INT_DIGITS = 18  # any count, cost or code fits; int("9" * 5000) would raise in the parser
MAX_STRING = 100_000  # characters in one JSON string (the longest card text or ruling: ~1,100)


class _Refused(Exception):
    pass


def _int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise _Refused(f"holds an integer of {len(digits.lstrip('-'))} digits (at most {MAX_INT_DIGITS})")
    return int(digits)


def _constant(name: str) -> float:
    raise _Refused(f"holds {name}, which is not JSON")


def _where(path: list) -> str:
    out = ""
    for key in path:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else str(key))
    out = out or "the top level"
    return out if len(out) <= 80 else out[:77] + "..."


def parse_json(
    data: bytes,
    name: str,
    max_depth: int = MAX_JSON_DEPTH,
    max_string: int = MAX_STRING,
) -> Any:
    """JSON from a source file or answer, within limits: UTF-8 text, at most `max_depth` levels
    of nesting, integers of at most `MAX_INT_DIGITS` digits, no NaN or Infinity, strings of at
    most `max_string` characters and no lone surrogate (``"\\ud800"``, which no UTF-8 file or
    page could hold). Every problem is one `ScrapeError` naming the file and, where it lies in
    one, the field (``[12].title``)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ScrapeError(name, "is not UTF-8 text") from None
    try:
        value = json.loads(text, parse_int=_int, parse_constant=_constant)
    except _Refused as exc:
        raise ScrapeError(name, str(exc)) from None
    except RecursionError:
        raise ScrapeError(name, f"is nested too deeply (at most {max_depth} levels)") from None
    except json.JSONDecodeError as exc:
        raise ScrapeError(name, f"broken JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    # every value, without recursion: depth, strings (keys too)
    stack: list[tuple[Any, list, int]] = [(value, [], 1)]
    while stack:
        item, path, depth = stack.pop()
        if isinstance(item, str):
            _check_text(item, name, path, max_string)
        elif isinstance(item, dict | list):
            if depth > max_depth:
                raise ScrapeError(
                    name, f"is nested too deeply at {_where(path)} (at most {max_depth} levels)"
                )
            if isinstance(item, dict):
                for k, v in item.items():
                    _check_text(k, name, path, max_string, key=True)
                    stack.append((v, [*path, k], depth + 1))
            else:
                stack.extend((v, [*path, i], depth + 1) for i, v in enumerate(item))
    return value


def _check_text(text: str, name: str, path: list, max_string: int, key: bool = False) -> None:
    where = f"a key in {_where(path)}" if key else _where(path)
    if len(text) > max_string:
        raise ScrapeError(name, f"{where} is {len(text)} characters long (at most {max_string})")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ScrapeError(
            name, f"{where} holds a lone surrogate (\\ud800-\\udfff): not valid Unicode"
        ) from None


def atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; readers may be another user (docs/deploy.md)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


OFFLINE_HINT = "`nrrules build --source ./cr-26.03.html` (or a folder of CR files)"


def fetch_url(
    url: str, cache_dir: Path, timeout: float = DEFAULT_TIMEOUT, offline_hint: str = OFFLINE_HINT
) -> Source:
    """GET a URL, revalidating a cached copy with ETag / Last-Modified. Without a connection
    and a cached copy, the error suggests the local source `offline_hint` names."""
    import requests  # imported here: only URL builds need it

    key = hashlib.sha256(url.encode()).hexdigest()[:24]
    body_path = cache_dir / f"{key}.body"
    meta_path = cache_dir / f"{key}.json"
    meta: dict = {}
    if body_path.exists() and meta_path.exists():
        try:
            meta = json.loads(meta_path.read_text())
        except (OSError, ValueError):
            meta = {}
    headers = {"User-Agent": "nrrules (Netrunner rules tool)"}
    if meta.get("etag"):
        headers["If-None-Match"] = meta["etag"]
    if meta.get("last_modified"):
        headers["If-Modified-Since"] = meta["last_modified"]
    try:
        resp = requests.get(url, headers=headers, timeout=timeout, stream=True)
    except requests.exceptions.Timeout:
        return _offline(url, body_path, f"no answer within {timeout:g} s", offline_hint)
    except requests.exceptions.RequestException as exc:
        reason = type(exc).__name__
        return _offline(url, body_path, f"cannot connect ({reason})", offline_hint)
    with resp:
        if resp.status_code == 304 and body_path.exists():
            return Source(
                name=url, data=body_path.read_bytes(), note="not modified since last fetch (cached)"
            )
        if resp.status_code >= 400:
            raise ScrapeError(
                url, f"the server answered HTTP {resp.status_code} {resp.reason or ''}".rstrip()
            )
        chunks, total = [], 0
        for chunk in resp.iter_content(65536):
            total += len(chunk)
            if total > MAX_BYTES:
                raise ScrapeError(url, "the response is far larger than any CR document")
            chunks.append(chunk)
        data = b"".join(chunks)
        atomic_write(body_path, data)
        atomic_write(
            meta_path,
            json.dumps(
                {
                    "url": url,
                    "etag": resp.headers.get("ETag"),
                    "last_modified": resp.headers.get("Last-Modified"),
                }
            ).encode(),
        )
        return Source(name=url, data=data)


def _offline(url: str, body_path: Path, reason: str, hint: str = OFFLINE_HINT) -> Source:
    if body_path.exists():
        return Source(
            name=url,
            data=body_path.read_bytes(),
            note=f"offline ({reason}): using the copy cached at {body_path}",
        )
    raise ScrapeError(
        url,
        f"{reason}: you appear to be offline and there is no cached copy. "
        f"Use a local copy instead, e.g. {hint}.",
    )
