"""Compressed API answers: a JSON answer of 1,000 bytes or more goes gzipped to a client that accepts gzip.

The web app's assets are compressed ahead of time (``api/spa.py``) and left alone. A client that does not ask for
gzip (``wrk`` in ``make bench``, most scripts) costs one look at the request's headers. Level 1: the 20 kB
catalogue becomes 1.5 kB in about 70 µs, where level 6 saves 160 bytes more for four times the CPU and level 9
(Starlette's default) takes over a millisecond.
"""

from __future__ import annotations

from starlette.middleware.gzip import GZipResponder
from starlette.types import ASGIApp, Receive, Scope, Send

from api.middleware import API_PREFIX

MINIMUM_BYTES = 1000
LEVEL = 1


class CompressedAnswers:
    """Pure ASGI middleware: gzip API answers over ``MINIMUM_BYTES`` for clients that accept it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].startswith(API_PREFIX) and _accepts_gzip(scope):
            await GZipResponder(self.app, MINIMUM_BYTES, compresslevel=LEVEL)(scope, receive, send)
            return
        await self.app(scope, receive, send)


def _accepts_gzip(scope: Scope) -> bool:
    for name, value in scope["headers"]:
        if name == b"accept-encoding":
            return b"gzip" in value.lower()
    return False
