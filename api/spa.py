"""Serving the built web app (web/dist) with a fallback to index.html for client routes.

Hashed assets are cached for a year as immutable; everything else is revalidated. The build also writes
brotli (``.br``) and gzip (``.gz``) copies of text assets, and the smallest one the browser accepts is sent
with its ``Content-Encoding``, so answers are compressed without compressing anything per request.
"""

from __future__ import annotations

import mimetypes
from pathlib import Path

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import FileResponse, HTMLResponse, Response

from api.middleware import API_PREFIX

NOT_BUILT = (
    "<!doctype html><meta charset=utf-8><title>Not built</title>"
    "<p>The web app has not been built yet: run <code>make run</code>.</p>"
)


def install_spa(app: FastAPI, dist: Path) -> None:
    """Static files from ``dist``; any other non-API GET gets index.html."""
    root = dist.resolve()

    @app.get("/{path:path}", include_in_schema=False)
    def web_app(path: str, request: Request) -> Response:
        if ("/" + path).startswith(API_PREFIX):
            raise HTTPException(status_code=404)
        # The back office (/admin/...) is the web app's second entry; every other client route is the storefront's.
        back_office = path == "admin" or path.startswith("admin/")
        index = root / ("admin.html" if back_office else "index.html")
        if not index.is_file():
            return HTMLResponse(NOT_BUILT, status_code=503)
        candidate = (root / path).resolve()
        if path and candidate.is_file() and candidate.is_relative_to(root):
            immutable = candidate.parent.name == "assets"
            headers = {"Cache-Control": "public, max-age=31536000, immutable" if immutable else "no-cache"}
            return _file(candidate, request, headers)
        if Path(path).suffix:
            raise HTTPException(status_code=404)
        return _file(index, request, {"Cache-Control": "no-cache"})


# Compressed copies the build writes beside a file, best first.
ENCODINGS = (("br", ".br"), ("gzip", ".gz"))


def accepted_encodings(accept_encoding: str) -> set[str]:
    """The content codings an Accept-Encoding header accepts (a coding given q=0 is refused)."""
    accepted = set()
    for item in accept_encoding.lower().split(","):
        coding, *params = (part.strip() for part in item.split(";"))
        qualities = [param.removeprefix("q=") for param in params if param.startswith("q=")]
        try:
            refused = bool(qualities) and float(qualities[0]) <= 0
        except ValueError:
            refused = True
        if coding and not refused:
            accepted.add(coding)
    return accepted


def _file(path: Path, request: Request, headers: dict[str, str]) -> FileResponse:
    """``path``, or its compressed copy in the best coding the browser accepts."""
    accepted = accepted_encodings(request.headers.get("accept-encoding", ""))
    for coding, suffix in ENCODINGS:
        compressed = path.with_name(path.name + suffix)
        if (coding in accepted or "*" in accepted) and compressed.is_file():
            media_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            encoded = {**headers, "Content-Encoding": coding, "Vary": "Accept-Encoding"}
            return FileResponse(compressed, headers=encoded, media_type=media_type)
    return FileResponse(path, headers={**headers, "Vary": "Accept-Encoding"})
