"""The access log keeps every line, written in batches rather than one write per request."""

from __future__ import annotations

import io
import logging

from api.access_log import BatchedStreamHandler, log_config


class CountingStream(io.StringIO):
    writes = 0

    def write(self, text: str) -> int:
        self.writes += 1
        return super().write(text)


def test_every_line_arrives_in_order_with_far_fewer_writes() -> None:
    stream = CountingStream()
    handler = BatchedStreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(message)s"))
    log = logging.getLogger("test.access.batched")
    log.propagate = False
    log.setLevel(logging.INFO)
    log.addHandler(handler)
    try:
        for n in range(1000):
            log.info("GET /licenses/mine %d", n)
    finally:
        log.removeHandler(handler)
        handler.close()  # as logging does at exit: what is still buffered is written
    assert stream.getvalue().splitlines() == [f"GET /licenses/mine {n}" for n in range(1000)]
    assert stream.writes <= 10


def test_uvicorn_keeps_its_access_format_and_level() -> None:
    config = log_config()
    assert config["handlers"]["access"]["class"] == "api.access_log.BatchedStreamHandler"
    assert config["handlers"]["access"]["formatter"] == "access"
    assert config["loggers"]["uvicorn.access"]["level"] == "INFO"
