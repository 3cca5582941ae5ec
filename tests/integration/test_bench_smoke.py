"""Every benchmark still runs to the end: ``python -m bench --smoke --stores sqlite`` (each at its smallest size, one
stack shared by those that need one). A benchmark nobody runs rots (issue 48: renewals was refused 403 for weeks);
its figures are not judged here, only that it runs. It is marked ``bench_smoke``: the default pytest run leaves it
out; ``make bench-smoke`` runs it (it needs web/dist)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import REDIS_URL, redis_available, require
from tests.faults.stack import ROOT

pytestmark = [pytest.mark.integration, pytest.mark.bench_smoke]


@pytest.mark.timeout(480)
def test_every_benchmark_runs_at_its_smallest_size() -> None:
    require("Redis", redis_available())  # the renewal pass goes through the stack's broker, as in production
    from bench.__main__ import BENCHMARKS

    environment = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CI")}
    environment |= {"BENCH_REDIS_URL": REDIS_URL, "PYTHONPATH": str(ROOT)}
    finished = subprocess.run(
        [sys.executable, "-m", "bench", "--smoke", "--stores", "sqlite"],
        cwd=ROOT, env=environment, capture_output=True, text=True, timeout=450,
    )  # fmt: skip
    output = finished.stdout + finished.stderr
    assert finished.returncode == 0, output[-6000:]
    print("\n".join(line for line in output.splitlines() if line.startswith("smoke:")))  # each one's time, in CI's log
    for name in BENCHMARKS:
        assert f"smoke: {name} on sqlite:" in output, output[-6000:]
    assert "smoke: every benchmark ran" in output
