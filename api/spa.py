"""Serving the built web app (web/dist) with a fallback to index.html for client routes."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, HTTPException
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
    def web_app(path: str) -> Response:
        if ("/" + path).startswith(API_PREFIX):
            raise HTTPException(status_code=404)
        index = root / "index.html"
        if not index.is_file():
            return HTMLResponse(NOT_BUILT, status_code=503)
        candidate = (root / path).resolve()
        if path and candidate.is_file() and candidate.is_relative_to(root):
            immutable = candidate.parent.name == "assets"
            headers = {"Cache-Control": "public, max-age=31536000, immutable" if immutable else "no-cache"}
            return FileResponse(candidate, headers=headers)
        if Path(path).suffix:
            raise HTTPException(status_code=404)
        return FileResponse(index, headers={"Cache-Control": "no-cache"})
