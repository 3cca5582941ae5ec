"""A doorbell from the log's writers to its followers, for SQLite, which cannot notify.

PostgreSQL wakes a follower with LISTEN/NOTIFY. On SQLite a follower polls, and a purchase's confirm, which waits
for the views, waited out the poll. So every process that commits to a SQLite log rings: it sends an empty datagram
to each follower's Unix socket, found in a directory named for the database file. A follower binds its socket
before it first reads the log, so a commit either is in that read or rings after it; a ring that arrives while the
follower is busy waits in its socket and wakes the next wait, so none is lost. Polling stays as the safety net
(a write from a process that cannot ring is still seen within the idle interval).

The directory is under the system's temporary directory, not ``var/``: a Unix socket's path is limited to about
100 bytes, and ``var/`` may sit deep in a checkout or a test's temporary tree.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import select
import socket
import tempfile
import threading
import uuid
from pathlib import Path

SOCKET_SUFFIX = ".bell"


def doorbells_supported() -> bool:
    """Whether this platform has Unix datagram sockets (Linux and macOS do; elsewhere followers just poll)."""
    return hasattr(socket, "AF_UNIX")


class Doorbell:
    """The bells of every follower of one SQLite log file."""

    def __init__(self, database_path: str) -> None:
        digest = hashlib.sha256(os.path.realpath(database_path).encode()).hexdigest()[:20]
        self.directory = Path(tempfile.gettempdir()) / f"storefront-bells-{digest}"
        self._sender: socket.socket | None = None
        self._sender_lock = threading.Lock()

    def ring(self) -> None:
        """Wake every follower of this log (after a commit). Never raises: a missed ring costs one poll interval."""
        try:
            names = os.listdir(self.directory)
        except OSError:
            return  # nobody follows yet
        for name in names:
            if name.endswith(SOCKET_SUFFIX):
                self._ring_one(str(self.directory / name))

    def _ring_one(self, path: str) -> None:
        try:
            self._sending_socket().sendto(b"", path)
        except BlockingIOError:
            pass  # its queue is full of rings it has not read yet: it is awake already
        except (ConnectionRefusedError, FileNotFoundError):
            with contextlib.suppress(OSError):
                os.unlink(path)  # a follower that died without tidying up
        except OSError:
            pass

    def _sending_socket(self) -> socket.socket:
        with self._sender_lock:
            if self._sender is None:
                sender = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
                sender.setblocking(False)
                self._sender = sender
            return self._sender

    def listen(self) -> DoorbellListener:
        """A bell of this process's own: bound now, so any commit from here on rings it."""
        path = self.directory / f"{os.getpid()}-{uuid.uuid4().hex[:12]}{SOCKET_SUFFIX}"
        while True:
            self.directory.mkdir(mode=0o700, exist_ok=True)
            # the last follower to leave may take the directory away between these two lines: make it again
            with contextlib.suppress(FileNotFoundError):
                return DoorbellListener(path)


class DoorbellListener:
    """One follower's bell (close it to take it off the door)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        try:
            self._socket.bind(str(path))
        except OSError:
            self._socket.close()
            raise
        self._socket.setblocking(False)

    def wait(self, timeout: float) -> bool:
        """Wait until rung or ``timeout`` seconds pass; True when rung. Every ring waiting is used up."""
        readable, _, _ = select.select([self._socket], [], [], timeout)
        if not readable:
            return False
        with contextlib.suppress(BlockingIOError):
            while True:
                self._socket.recv(1)
        return True

    def close(self) -> None:
        """Stop listening and take the bell off the door."""
        self._socket.close()
        with contextlib.suppress(OSError):
            os.unlink(self.path)
        with contextlib.suppress(OSError):
            self.path.parent.rmdir()  # the last follower to leave takes the directory away (fails while others stay)

    def __enter__(self) -> DoorbellListener:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
