"""The benchmarks judge only what was measured as intended: a baseline that answered errors is refused, and a
figure of ours whose requests were answered with errors does not pass, whatever its ratio."""

from __future__ import annotations

import pytest

from bench.harness import Result, table
from bench.load import Load, judged, parse

WRK_OUTPUT = """Running 10s test @ http://127.0.0.1:9400/answer/validate
  2 threads and 50 connections
  Latency Distribution
     50%    4.78ms
     75%    5.01ms
     90%    5.20ms
     99%    5.49ms
  104366 requests in 10.00s, 14.33MB read
  Non-2xx or 3xx responses: 104366
Requests/sec:  10436.69
"""


def test_a_baseline_that_answered_404s_is_refused() -> None:
    measured = parse(WRK_OUTPUT)
    assert measured.non_2xx == 104366
    with pytest.raises(AssertionError, match="answered 104366 requests with an error"):
        measured.as_baseline("validate")


def test_a_baseline_that_answered_every_request_is_kept() -> None:
    answered = Load(requests_per_second=2500.0, p50_ms=19.0, p99_ms=38.0, non_2xx=0)
    assert answered.as_baseline("validate") is answered


def test_our_figure_fails_when_our_requests_were_refused_whatever_its_ratio() -> None:
    refused = Result("apps: validate", "sqlite", "req/s", 3000.0, 2500.0, 0.6, note="900 non-2xx", errors=900)
    clean = Result("apps: validate", "sqlite", "req/s", 1700.0, 2500.0, 0.6)
    assert refused.ratio > clean.ratio
    assert not refused.passed
    assert clean.passed
    printed = table([refused, clean])
    assert "ANSWERED ERRORS" in printed
    assert "900 non-2xx" in printed


def test_a_load_of_ours_that_got_errors_passes_neither_its_throughput_nor_its_p99() -> None:
    baseline = Load(requests_per_second=2500.0, p50_ms=19.0, p99_ms=38.0, non_2xx=0)
    fast_refusals = Load(requests_per_second=5000.0, p50_ms=5.0, p99_ms=9.0, non_2xx=40)
    clean = Load(requests_per_second=1700.0, p50_ms=20.0, p99_ms=35.0, non_2xx=0)
    assert [item.passed for item in judged("apps: validate", "sqlite", fast_refusals, baseline)] == [False, False]
    throughput, p99 = judged("apps: validate", "sqlite", clean, baseline)
    assert (throughput.benchmark, p99.benchmark) == ("apps: validate", "apps: validate p99")
    assert throughput.passed and p99.passed
