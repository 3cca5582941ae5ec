"""Serving the built web app (web/dist) with a fallback to index.html for client routes.

The fallback knows the app's routes (dist/routes.json, written by the build from web/src/routing/paths.ts): an
address no page has gets index.html with HTTP 404, where the app shows its not-found page.

Hashed assets are cached for a year as immutable; everything else is revalidated. The build also writes
brotli (``.br``) and gzip (``.gz``) copies of text assets, and the smallest one the browser accepts is sent
with its ``Content-Encoding``, so answers are compressed without compressing anything per request.
"""

from __future__ import annotations

import json
import mimetypes
import re
from pathlib import Path

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import FileResponse, HTMLResponse, Response

from api.middleware import API_PREFIX

NOT_BUILT = (
    "<!doctype html><meta charset=utf-8><title>Not built</title>"
    "<p>The web app has not been built yet: run <code>make run</code>.</p>"
)


class RouteTable:
    """The web app's pages: its languages and the patterns of the paths after /{lang} (``:name`` one segment)."""

    def __init__(self, languages: list[str], patterns: list[str]) -> None:
        self.languages = {language.lower() for language in languages}
        self.patterns = [
            re.compile(
                "^" + "/".join("[^/]+" if part.startswith(":") else re.escape(part) for part in p.split("/")) + "$"
            )
            for p in patterns
        ]

    @classmethod
    def read(cls, dist: Path) -> RouteTable | None:
        """The build's table, or None when the build wrote none (every address is then a page)."""
        try:
            manifest = json.loads((dist / "routes.json").read_text(encoding="utf-8"))
            return cls(list(manifest["languages"]), list(manifest["patterns"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def has_page(self, path: str) -> bool:
        """Is there a page at ``path``? As the app redirects: a first segment that is a language, or any other
        two letters, stands for the language; any other address gets the language put in front."""
        segments = [segment for segment in path.split("/") if segment]
        if segments and (segments[0].lower() in self.languages or re.fullmatch("[A-Za-z]{2}", segments[0])):
            segments = segments[1:]
        rest = "/".join(segments)
        return any(pattern.match(rest) for pattern in self.patterns)


def install_spa(app: FastAPI, dist: Path) -> None:
    """Static files from ``dist``; any other non-API GET gets index.html (404 where the app has no page)."""
    root = dist.resolve()
    routes = RouteTable.read(root)

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
        page = _file(index, request, {"Cache-Control": "no-cache"})
        if routes is not None and not routes.has_page(path):
            page.status_code = 404
        return page


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
