"""Request bodies at the edge, before any route reads one.

Every API body is capped at ``MAX_BODY_BYTES`` as it is read (413 with -2 in the envelope): one that declares a
larger length is refused before a byte of it is read, one sent without a length once it passes the cap. A route
that reads and bounds its body itself (the multipart forms of images, ``api.uploads``: 5 images of 3 MB) lifts
the cap for its request first. A JSON body whose strings hold a lone surrogate (``"\\ud800"``, or the bytes
of one) is refused with 400 and -2 once, here: Python parses it, but no UTF-8 text (a column, a token, a
mail) can hold it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from fastapi import HTTPException, Request
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

# The largest JSON a customer sends is a few hundred bytes (a form, a card, a coupon group); 64 KiB leaves room.
MAX_BODY_BYTES = 64 * 1024
ALLOWANCE = "storefront.body_allowance"
# A \u escape of a surrogate (U+D800 to U+DFFF): only such a body can parse to a lone one.
_ESCAPED_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass
class Allowance:
    """How many bytes this request's body may have (None: the route bounds it itself)."""

    limit: int | None = MAX_BODY_BYTES


def bounds_its_own_body(request: Request) -> None:
    """Lift the cap for a route that reads its body with limits of its own (a multipart form of images)."""
    allowance = request.scope.get(ALLOWANCE)
    if isinstance(allowance, Allowance):
        allowance.limit = None


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


def _is_json(headers: Headers) -> bool:
    # FastAPI parses a body without a content type as JSON too.
    kind = headers.get("content-type", "").split(";", 1)[0].strip().lower()
    return kind in ("", "application/json") or (kind.startswith("application/") and kind.endswith("+json"))


class BodyLimits:
    """Pure ASGI: caps API request bodies and refuses JSON with lone surrogates (see the module docstring)."""

    def __init__(self, app: ASGIApp, prefix: str) -> None:
        self.app = app
        self.prefix = prefix

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(self.prefix):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        declared = headers.get("content-length", "")
        allowance = Allowance()
        scope[ALLOWANCE] = allowance  # an object, so that a route sees it whatever copies of the scope are made
        checked = _checked(receive, allowance, int(declared) if declared.isdigit() else 0, keep=_is_json(headers))
        await self.app(scope, checked, send)


def _checked(receive: Receive, allowance: Allowance, declared: int, keep: bool) -> Receive:
    """``receive`` refusing a body past the allowance (a declared length before reading anything), and keeping
    a JSON body to look at once it is whole."""
    size = 0
    parts: list[bytes] = []

    async def checked() -> Message:
        nonlocal size
        limit = allowance.limit
        if limit is not None and declared > limit:
            raise BodyTooLarge()
        message = await receive()
        if message["type"] != "http.request":
            return message
        chunk = message.get("body", b"")
        size += len(chunk)
        if limit is not None and size > limit:
            raise BodyTooLarge()
        if keep:
            parts.append(chunk)
            if not message.get("more_body", False) and holds_lone_surrogate(b"".join(parts)):
                raise LoneSurrogate()
        return message

    return checked
