"""Short links to stepper sessions: `/s/<id>`, where the id is a hash of the session's token.

A session's long link carries the whole session in its signed token (webapp/tokens.py): any
server with the same SECRET_KEY opens it, but it is about a kilobyte long (the board travels in
it). A short link is 12 characters: the first 60 bits of the SHA-256 of the token, in lowercase
base32 (easy to read out at a table). The server keeps the token in a file named by that id, in a
directory every worker of the host shares (``<build dir>/.shares``, or ``NRRULES_SHARE_DIR``), so:

* any worker resolves any short link (no process memory is involved), and a link made twice is
  the same link, written once (content-addressed);
* what a file holds is checked like any token (its signature, and its hash must be its name), so
  a file changed on disk is refused, never replayed;
* the directory is bounded: at most `max_entries` files of at most `tokens.MAX_TOKEN` characters
  (10,000 x 12 KB = 120 MB at worst; a typical token is 1-2 KB). Over the bound, the links least
  recently made or opened go first (opening one refreshes its time);
* several machines behind one address resolve each other's short links only if they share the
  directory; a short link a server does not know says so, and the long link always works.

A compact encoding of the session instead of a stored one was measured: the Tollbooth / Ice Wall
run's session is 1,912 bytes of JSON, 1,064 characters zlib-compressed in base64 (912 with a
preset dictionary of the example boards), so no encoding of a board makes a link a judge can
read out; a 12-character id does.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import hashlib
import os
import re
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .tokens import MAX_TOKEN

ID_LENGTH = 12  # base32 characters: 60 bits
ID_PATTERN = re.compile(rf"^[a-z2-7]{{{ID_LENGTH}}}$")
MAX_ENTRIES = 10_000
LOCK = ".lock"


class ShareStoreError(RuntimeError):
    """The directory cannot be written (read-only disk, no space): short links are unavailable."""


def short_id(token: str) -> str:
    """The short id of a token: 60 bits of its SHA-256, lowercase base32."""
    digest = hashlib.sha256(token.encode("utf-8")).digest()
    return base64.b32encode(digest).decode("ascii")[:ID_LENGTH].lower()


@dataclass(frozen=True)
class ShareStore:
    root: Path
    max_entries: int = MAX_ENTRIES

    def _path(self, sid: str) -> Path:
        return self.root / sid

    def known(self, token: str) -> str | None:
        """The short id of `token` if a short link was made for it (and is still kept)."""
        sid = short_id(token)
        return sid if self.get(sid, touch=False) == token else None

    def get(self, sid: str, touch: bool = True) -> str | None:
        """The token a short id stands for, or None (unknown, dropped, or a file that does not
        hash to its name). Opening a link refreshes its time, so links in use are kept."""
        if not ID_PATTERN.match(sid):
            return None
        path = self._path(sid)
        try:
            with open(path, "rb") as f:
                data = f.read(MAX_TOKEN + 1)
        except OSError:
            return None
        try:
            token = data.decode("ascii")
        except UnicodeDecodeError:
            return None
        if len(token) > MAX_TOKEN or short_id(token) != sid:
            return None
        if touch:
            with contextlib.suppress(OSError):  # a read-only directory still resolves
                os.utime(path)
        return token

    def put(self, token: str) -> str:
        """Keep `token` and return its short id (the same id, written once, for the same token).
        Raises ShareStoreError when the directory cannot be written."""
        if not token or len(token) > MAX_TOKEN or not token.isascii():
            raise ValueError("not a session token")
        sid = short_id(token)
        if self.get(sid) == token:
            return sid
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            with self._lock():
                fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=self.root)
                try:
                    with os.fdopen(fd, "wb") as f:
                        f.write(token.encode("ascii"))
                    os.chmod(tmp, 0o644)
                    os.replace(tmp, self._path(sid))  # atomic: a reader sees all of it or nothing
                except BaseException:
                    with contextlib.suppress(OSError):
                        os.unlink(tmp)
                    raise
                self._evict(sid)
        except OSError as exc:
            raise ShareStoreError(f"short links cannot be kept ({exc.strerror or 'cannot write'})") from None
        return sid

    @contextlib.contextmanager
    def _lock(self) -> Iterator[None]:
        """One writer at a time across workers (eviction counts the directory)."""
        fd = os.open(self.root / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    def entries(self) -> list[os.DirEntry]:
        with os.scandir(self.root) as it:
            return [e for e in it if ID_PATTERN.match(e.name) and e.is_file(follow_symlinks=False)]

    def _evict(self, new: str) -> None:
        """Over the bound: drop the links least recently made or opened, down to 90% of it (so
        a full directory is not counted again at every new link), never the one just made."""
        entries = [e for e in self.entries() if e.name != new]
        if len(entries) + 1 <= self.max_entries:
            return
        keep = max(0, self.max_entries * 9 // 10 - 1)

        def mtime(e: os.DirEntry) -> float:
            try:
                return e.stat(follow_symlinks=False).st_mtime
            except OSError:
                return 0.0

        entries.sort(key=mtime)
        for e in entries[: len(entries) - keep]:
            with contextlib.suppress(OSError):
                os.unlink(e.path)
