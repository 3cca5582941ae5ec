"""The access log keeps uvicorn's line for every request, written in batches rather than one write per request."""

from __future__ import annotations

import asyncio
import io

from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from api.access_log import AccessLog, BatchedLines, access_line


class CountingStream(io.StringIO):
    writes = 0

    def write(self, text: str) -> int:
        self.writes += 1
        return super().write(text)


def test_every_line_arrives_in_order_with_far_fewer_writes() -> None:
    stream = CountingStream()
    lines = BatchedLines(stream)
    for n in range(1000):
        lines.add(f"GET /licenses/mine {n}\n")
    lines.close()  # as the API does when it stops: what is still kept is written
    assert stream.getvalue().splitlines() == [f"GET /licenses/mine {n}" for n in range(1000)]
    assert stream.writes <= 10


def test_a_request_is_logged_as_uvicorn_logged_it() -> None:
    scope = {
        "type": "http",
        "method": "GET",
        "path": "/web/unicornpro/v1/licenses/mine",
        "query_string": b"lang=ko",
        "http_version": "1.1",
        "client": ("203.0.113.9", 52114),
    }
    assert access_line(scope, 200) == (
        'INFO:     203.0.113.9:52114 - "GET /web/unicornpro/v1/licenses/mine?lang=ko HTTP/1.1" 200 OK\n'
    )
    assert access_line({**scope, "client": None, "query_string": b""}, 599).startswith('INFO:     - - "GET')


def _served(app: Starlette) -> tuple[TestClient, io.StringIO, BatchedLines]:
    stream = io.StringIO()
    lines = BatchedLines(stream)
    return TestClient(AccessLog(app, lines), raise_server_exceptions=False), stream, lines


def test_answers_and_crashes_each_get_their_status() -> None:
    async def fine(_: object) -> PlainTextResponse:
        return PlainTextResponse("fine", status_code=201)

    async def broken(_: object) -> PlainTextResponse:
        raise RuntimeError("boom")

    client, stream, lines = _served(Starlette(routes=[Route("/fine", fine), Route("/broken", broken)]))
    with client:
        assert client.get("/fine?x=1").status_code == 201
        assert client.get("/broken").status_code == 500
    lines.close()
    logged = stream.getvalue().splitlines()
    assert [line.split(" - ", 1)[1] for line in logged] == [
        '"GET /fine?x=1 HTTP/1.1" 201 Created',
        '"GET /broken HTTP/1.1" 500 Internal Server Error',
    ]


def test_lifespan_and_other_scopes_pass_through_unlogged() -> None:
    seen: list[str] = []

    async def app(scope: dict[str, object], receive: object, send: object) -> None:
        seen.append(str(scope["type"]))

    stream = io.StringIO()
    lines = BatchedLines(stream)
    asyncio.run(AccessLog(app, lines)({"type": "lifespan"}, None, None))  # type: ignore[arg-type]
    lines.close()
    assert seen == ["lifespan"]
    assert stream.getvalue() == ""
