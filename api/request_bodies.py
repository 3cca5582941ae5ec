"""Request bodies at the edge, before any route reads one.

Every API body is capped at ``MAX_BODY_BYTES`` (413 with -2 in the envelope), but the multipart forms of
the routes that take them (their document says so), which keep their own limits (``api.uploads``: 5 images
of 3 MB). A JSON body whose strings hold a lone surrogate (``"\\ud800"``, or the bytes of one) is refused
with 400 and -2 once, here: Python parses it, but no UTF-8 text (a column, a token, a mail) can hold it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cache

from fastapi import FastAPI, HTTPException, Request
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.errors import error_response
from domain.errors import ErrorCode

# The largest JSON a customer sends is a few hundred bytes (a form, a card, a coupon group); 64 KiB leaves room.
MAX_BODY_BYTES = 64 * 1024
FORM = "multipart/form-data"
# A \u escape of a surrogate (U+D800 to U+DFFF): only such a body can parse to a lone one.
_ESCAPED_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


class BodyTooLarge(HTTPException):
    """Raised from ``receive`` once a body passes its cap; the error handlers answer 413 with -2."""

    def __init__(self) -> None:
        super().__init__(status_code=413, detail=f"a request body is at most {MAX_BODY_BYTES} bytes")


class LoneSurrogate(HTTPException):
    """Raised from ``receive`` for a JSON body holding a lone surrogate; answered 400 with -2."""

    def __init__(self) -> None:
        super().__init__(status_code=400, detail="a JSON string holds a lone surrogate")


def holds_lone_surrogate(body: bytes) -> bool:
    """Would ``json.loads`` (what the routes use) give a string with an unpaired surrogate?"""
    try:
        plain = body.decode("utf-8")  # json.loads decodes with surrogatepass, and UTF-16 too: those go the long way
    except UnicodeDecodeError:
        plain = None
    if plain is not None and not _ESCAPED_SURROGATE.search(body):
        return False
    try:
        value = json.loads(body)
    except (ValueError, RecursionError):
        return False  # not JSON at all: the route refuses it as it would have
    pending = [value]
    while pending:  # a loop, not recursion: nesting as deep as the parser allowed
        item = pending.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return True
        elif isinstance(item, dict):
            pending.extend(item)
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return False


def form_paths(app: FastAPI) -> Callable[[], frozenset[str]]:
    """The paths whose OpenAPI operation takes a multipart form (none has a path parameter), read from the
    document once, when the first multipart request asks."""

    @cache
    def paths() -> frozenset[str]:
        return frozenset(
            path
            for path, item in app.openapi().get("paths", {}).items()
            for operation in item.values()
            if FORM in operation.get("requestBody", {}).get("content", {})
        )

    return paths


def _is_json(headers: Headers) -> bool:
    # FastAPI parses a body without a content type as JSON too.
    kind = headers.get("content-type", "").split(";", 1)[0].strip().lower()
    return kind in ("", "application/json") or (kind.startswith("application/") and kind.endswith("+json"))


class BodyLimits:
    """Pure ASGI: caps API request bodies and refuses JSON with lone surrogates (see the module docstring)."""

    def __init__(self, app: ASGIApp, prefix: str, forms: Callable[[], frozenset[str]]) -> None:
        self.app = app
        self.prefix = prefix
        self.forms = forms

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(self.prefix):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        if headers.get("content-type", "").lower().startswith(FORM) and scope["path"] in self.forms():
            await self.app(scope, receive, send)  # the form's own limits (api.uploads)
            return
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
            await error_response(Request(scope), ErrorCode.INVALID_VALUE, status=413)(scope, receive, send)
            return
        await self.app(scope, _checked(receive, keep=_is_json(headers)), send)


def _checked(receive: Receive, keep: bool) -> Receive:
    """``receive`` counting the body's bytes, and keeping a JSON body to look at once it is whole."""
    size = 0
    parts: list[bytes] = []

    async def checked() -> Message:
        nonlocal size
        message = await receive()
        if message["type"] != "http.request":
            return message
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise BodyTooLarge()
        if keep:
            parts.append(chunk)
            if not message.get("more_body", False) and holds_lone_surrogate(b"".join(parts)):
                raise LoneSurrogate()
        return message

    return checked
