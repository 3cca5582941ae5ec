"""The access log: uvicorn's lines, written by a small ASGI middleware in batches.

uvicorn's own access log made a LogRecord per request and ran it through the logging module's handler lock and
uvicorn's formatter: 12% of the API's throughput on a licence read (bench/RESULTS.md). The same line is now
an f-string appended to a list, and a thread writes the list to the stream every ``FLUSH_SECONDS``.
"""

from __future__ import annotations

import sys
import threading
from http import HTTPStatus
from typing import TextIO

from starlette.types import ASGIApp, Message, Receive, Scope, Send

FLUSH_SECONDS = 0.2
FLUSH_LINES = 256
PHRASES = {status.value: status.phrase for status in HTTPStatus}


def access_line(scope: Scope, status: int) -> str:
    """The line uvicorn writes for a request answered with ``status`` (level prefix, client, request line)."""
    client = scope.get("client")
    address = f"{client[0]}:{client[1]}" if client else "-"
    query = scope.get("query_string", b"")
    path = scope.get("root_path", "") + scope["path"] + (f"?{query.decode('latin-1')}" if query else "")
    request_line = f"{scope['method']} {path} HTTP/{scope.get('http_version', '1.1')}"
    return f'INFO:     {address} - "{request_line}" {status} {PHRASES.get(status, "")}'.rstrip() + "\n"


class BatchedLines:
    """Lines kept in memory and written to ``stream`` every ``FLUSH_SECONDS`` (or at ``FLUSH_LINES``) and at close,
    in order, one write per batch."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream
        self._lines: list[str] = []
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self._writer = threading.Thread(target=self._flush_every_while, name="access-log-flush", daemon=True)
        self._writer.start()

    def add(self, line: str) -> None:
        """Keep a line for the next write."""
        with self._lock:
            self._lines.append(line)
            full = len(self._lines) >= FLUSH_LINES
        if full:
            self.flush()

    def flush(self) -> None:
        """Write what is kept now."""
        with self._lock:
            lines, self._lines = self._lines, []
            if lines:
                stream = self._stream or sys.stdout
                stream.write("".join(lines))
                stream.flush()

    def close(self) -> None:
        """Stop the writer and write what is left."""
        self._stopped.set()
        self._writer.join(timeout=5)
        self.flush()

    def _flush_every_while(self) -> None:
        while not self._stopped.wait(FLUSH_SECONDS):
            try:
                self.flush()
            except Exception:  # a stream closed at exit: no traceback from this thread
                return


class AccessLog:
    """ASGI middleware writing one access line per HTTP request, when its response starts (as uvicorn does)."""

    def __init__(self, app: ASGIApp, lines: BatchedLines | None = None) -> None:
        self.app = app
        self.lines = lines or BatchedLines()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        logged = False

        async def logged_send(message: Message) -> None:
            nonlocal logged
            if message["type"] == "http.response.start" and not logged:
                logged = True
                self.lines.add(access_line(scope, message["status"]))
            await send(message)

        try:
            await self.app(scope, receive, logged_send)
        except BaseException:
            if not logged:  # uvicorn answers 500 for an app that failed before answering
                self.lines.add(access_line(scope, 500))
            raise
