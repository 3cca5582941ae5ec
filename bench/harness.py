"""What a benchmark reports, the stores it runs on, and how results are printed and kept.

Every figure is printed beside a baseline measured in the same run on the same machine, and judged by
their ratio: the machine (2 cores here, shared) changes absolute numbers from run to run, ratios much less.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

from tests.faults.stack import Stack, until

Size = TypeVar("Size")

RESULTS = Path(__file__).resolve().parent / "results"
PG_ADMIN = os.environ.get("BENCH_POSTGRES_ADMIN", "host=127.0.0.1 port=5432 user=postgres dbname=postgres")
PG_URL_BASE = os.environ.get("BENCH_POSTGRES_URL_BASE", "postgresql://postgres@127.0.0.1:5432")
# The Redis database a production-like run ("postgres+redis") uses for its broker and rate limits, emptied before
# and after the run (the tests' parallel workers take databases 15 downwards).
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/8")
# A smoke run (``python -m bench --smoke``, tests/integration/test_bench_smoke.py): every benchmark at its smallest
# size, to show that it still runs to the end; its figures mean nothing.
SMOKE = "BENCH_SMOKE"
# What a stack shared by a smoke run's benchmarks runs with: the union of what each benchmark's own stack needs
# (renewals: the shared test clock, Redis for the broker it sends the renewal pass through, a thread pool).
ADMIN_TOKEN = "bench-admin"  # noqa: S105 - the benchmark stacks' own test-harness token
SHARED_STACK_ENV = {
    "TEST_CLOCK": "1",
    "TEST_ADMIN_TOKEN": ADMIN_TOKEN,
    "WORKER_POOL": "threads",
    "WORKER_CONCURRENCY": "4",
}
_shared_stacks: list[Stack] = []
_sharing: list[Path] = []  # the shared stack's var directory, while a smoke run on SQLite shares one


@dataclass(frozen=True)
class Result:
    """One figure of ours against its baseline; ``target`` is the ratio the issue asks for."""

    benchmark: str
    store: str
    unit: str
    ours: float
    baseline: float
    target: float
    higher_is_better: bool = True
    note: str = ""
    errors: int = 0  # requests of ours answered with an error: a cheaper answer than the one measured for

    @property
    def ratio(self) -> float:
        """ours / baseline (0 when the baseline is 0)."""
        return self.ours / self.baseline if self.baseline else 0.0

    @property
    def passed(self) -> bool:
        """Does the ratio meet its target, with every request of ours answered as intended?"""
        if self.errors:
            return False
        return self.ratio >= self.target if self.higher_is_better else self.ratio <= self.target


def table(results: list[Result]) -> str:
    """The results as an aligned text table."""
    header = ("benchmark", "store", "ours", "baseline", "unit", "ratio", "target", "")
    rows = [
        (
            item.benchmark,
            item.store,
            f"{item.ours:,.1f}",
            f"{item.baseline:,.1f}",
            item.unit,
            f"{item.ratio:.2f}",
            f"{'≥' if item.higher_is_better else '≤'} {item.target:g}",
            "ok" if item.passed else ("ANSWERED ERRORS" if item.errors else "BELOW TARGET"),
        )
        for item in results
    ]
    widths = [max(len(str(row[column])) for row in [header, *rows]) for column in range(len(header))]
    lines = [
        "  ".join(str(cell).ljust(width) for cell, width in zip(row, widths, strict=True)) for row in [header, *rows]
    ]
    notes = [f"  {item.benchmark} on {item.store}: {item.note}" for item in results if item.note]
    return "\n".join([*(line.rstrip() for line in lines), *(["notes:", *notes] if notes else [])])


def host_speed() -> dict[str, float]:
    """How fast the host is right now: seconds for ten million Python additions and the load average.

    The shared machine's speed drifts (the same loop has taken 0.8 s and 2.1 s on it within a day); ratios absorb
    most of that, but the absolute targets (renewals/s, events/s, Lighthouse) do not, so each run records it at its
    start and end."""
    started = time.perf_counter()
    total = 0
    for number in range(10_000_000):
        total += number
    return {"loop_seconds": round(time.perf_counter() - started, 3), "load_average": round(os.getloadavg()[0], 2)}


def keep(results: list[Result], host: dict[str, object] | None = None) -> Path:
    """Write the results (and how fast the host was) to bench/results/<UTC time>.json; its path."""
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"{datetime.now(UTC):%Y%m%dT%H%M%SZ}.json"
    records = [{**asdict(item), "ratio": round(item.ratio, 4), "passed": item.passed} for item in results]
    document = {"host": host or {}, "results": records}
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    return path


@contextmanager
def store_settings(kind: str) -> Iterator[dict[str, str]]:
    """Environment settings for a fresh store of ``kind`` (sqlite: a file under the var dir the stack makes;
    postgres: a database made for the run and dropped after it; postgres+redis: that, with production's Redis
    for the broker and the rate limits, as every deployment has it)."""
    if kind == "sqlite":
        yield {}
        return
    if kind not in ("postgres", "postgres+redis"):
        raise SystemExit(f"unknown store {kind!r}: sqlite, postgres or postgres+redis")
    import psycopg

    name = f"perf_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        if kind == "postgres":
            yield {"DATABASE_URL": f"{PG_URL_BASE}/{name}"}
        else:
            with _emptied_redis() as redis_url:
                yield {"DATABASE_URL": f"{PG_URL_BASE}/{name}", "REDIS_URL": redis_url}
    finally:
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def _emptied_redis() -> Iterator[str]:
    import redis

    client = redis.Redis.from_url(REDIS_URL)
    client.flushdb()
    try:
        yield REDIS_URL
    finally:
        client.flushdb()
        client.close()


def smoke() -> bool:
    """Is this a smoke run (every benchmark at its smallest size)?"""
    return os.environ.get(SMOKE) == "1"


def smallest(size: Size, smoke_size: Size) -> Size:
    """``size``, or ``smoke_size`` in a smoke run."""
    return smoke_size if smoke() else size


@contextmanager
def shared_stack(store: str) -> Iterator[None]:
    """In a smoke run on SQLite, one stack for every benchmark that needs one, started when the first asks for it
    and stopped at the end (starting and stopping a stack takes most of half a minute on this machine; its stores
    are files of its own var directory, so each benchmark reads the stack's own); elsewhere nothing: each benchmark
    starts a stack of its own on a fresh store."""
    if not smoke() or store != "sqlite":
        yield
        return
    import tempfile

    # Redis emptied before and after, as for a production-like run: the stack counts its rate limits there, and an
    # hour's earlier smoke runs from 127.0.0.1 had used up the mail limit of the same client (20 an hour).
    with tempfile.TemporaryDirectory(prefix="bench-smoke-") as tmp, _emptied_redis():
        _sharing.append(Path(tmp) / "var")
        try:
            yield
        finally:
            _sharing.clear()
            while _shared_stacks:
                _shared_stacks.pop().stop()


def shares_a_stack() -> bool:
    """Does a smoke run's shared stack stand in for each benchmark's own?"""
    return bool(_sharing)


@contextmanager
def bench_stack(var_dir: Path, **env: str) -> Iterator[Stack]:
    """A stack as ``make run`` starts it (``env`` added to its settings), answering its health check, stopped
    afterwards; in a smoke run on SQLite, the run's shared stack instead (left running)."""
    if _sharing:
        if not _shared_stacks:
            stack = Stack(_sharing[0], **SHARED_STACK_ENV, REDIS_URL=REDIS_URL)
            _shared_stacks.append(stack)
            # On a loaded host (make test runs the browser suite beside two pytest processes) the API has taken
            # longer than the harness's 90 s to start: a smoke run waits longer rather than fail for the host.
            until(lambda: stack.supervisor.poll() is not None or stack.healthy(), "the API answers", seconds=300)
            assert stack.supervisor.poll() is None, (stack.var_dir / "console.log").read_text()
        yield _shared_stacks[0]
        return
    stack = Stack(var_dir, **env)
    try:
        stack.wait_until_healthy()
        yield stack
    finally:
        stack.stop()
