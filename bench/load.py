"""HTTP load with wrk (Debian's `wrk`): requests per second and latency percentiles of one URL.

A smoke run (``python -m bench --smoke``) without wrk installed makes each load SMOKE_REQUESTS requests one after
another with httpx instead, counted and timed the same way: it shows the benchmark still runs and its URLs still
answer, not what they sustain. A full run without wrk stops, saying how to install it.
"""

from __future__ import annotations

import re
import shutil
import statistics
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

from bench.harness import Result, smoke

SMOKE_REQUESTS = 20
UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


@dataclass(frozen=True)
class Load:
    """What wrk measured."""

    requests_per_second: float
    p50_ms: float
    p99_ms: float
    non_2xx: int

    def as_baseline(self, what: str) -> Load:
        """This load, refused as a baseline unless every request was answered with success: a baseline that
        answered errors (a 404 from a wrong path) measured how fast the framework refuses, not the work."""
        if self.non_2xx:
            raise AssertionError(f"the baseline {what} answered {self.non_2xx} requests with an error")
        return self


def wrk_path() -> str:
    """The wrk binary, or a clear error saying how to get it."""
    found = shutil.which("wrk")
    if found is None:
        raise SystemExit("make bench needs wrk: apt-get install -y wrk")
    return found


def _ms(text: str) -> float:
    match = re.fullmatch(r"([\d.]+)(us|ms|s)", text)
    if match is None:
        raise ValueError(f"not a wrk latency: {text!r}")
    return float(match.group(1)) * UNITS[match.group(2)]


def parse(output: str) -> Load:
    """Read wrk --latency output."""
    rate = re.search(r"Requests/sec:\s+([\d.]+)", output)
    p50 = re.search(r"^\s+50%\s+(\S+)", output, re.MULTILINE)
    p99 = re.search(r"^\s+99%\s+(\S+)", output, re.MULTILINE)
    if not (rate and p50 and p99):
        raise ValueError(f"unexpected wrk output:\n{output}")
    errors = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", output)
    return Load(float(rate.group(1)), _ms(p50.group(1)), _ms(p99.group(1)), int(errors.group(1)) if errors else 0)


def hammer(
    url: str,
    *,
    seconds: int,
    connections: int,
    headers: dict[str, str] | None = None,
    script: Path | None = None,
    posted: tuple[str, dict[str, object]] | None = None,
) -> Load:
    """Run wrk against ``url`` (2 threads, ``connections`` open connections) and read what it measured; a Lua
    ``script`` writes each request (a POST body, headers that vary), and ``posted`` (path, body) is one such request
    for a smoke run without wrk."""
    if smoke() and shutil.which("wrk") is None:
        return _in_sequence(url, headers or {}, posted)
    command = [wrk_path(), "-t2", f"-c{connections}", f"-d{seconds}s", "--latency"]
    if script is not None:
        command += ["-s", str(script)]
    for name, value in (headers or {}).items():
        command += ["-H", f"{name}: {value}"]
    finished = subprocess.run([*command, url], capture_output=True, text=True, timeout=seconds + 60, check=True)
    return parse(finished.stdout)


def _in_sequence(url: str, headers: dict[str, str], posted: tuple[str, dict[str, object]] | None) -> Load:
    """SMOKE_REQUESTS requests to ``url`` (a POST of ``posted``'s body to its path, if given), one at a time."""
    timings, errors = [], 0
    with httpx.Client(timeout=30, headers=headers) as http:
        started = time.perf_counter()
        for _ in range(SMOKE_REQUESTS):
            began = time.perf_counter()
            answer = http.post(f"{url}{posted[0]}", json=posted[1]) if posted else http.get(url)
            timings.append((time.perf_counter() - began) * 1000)
            errors += not answer.is_success
        elapsed = time.perf_counter() - started
    timings.sort()
    p99 = timings[min(len(timings) - 1, int(len(timings) * 0.99))]
    return Load(SMOKE_REQUESTS / elapsed, statistics.median(timings), p99, errors)


def judged(benchmark: str, store: str, ours: Load, baseline: Load) -> list[Result]:
    """Throughput (at least 0.6 of the baseline's) and p99 (at most twice the baseline's) of a load of ours; a
    load whose requests were answered with errors passes neither."""
    note = f"{ours.non_2xx} non-2xx" if ours.non_2xx else ""
    throughput = (ours.requests_per_second, baseline.requests_per_second)
    return [
        Result(benchmark, store, "req/s", *throughput, 0.6, note=note, errors=ours.non_2xx),
        Result(f"{benchmark} p99", store, "ms", ours.p99_ms, baseline.p99_ms, 2.0, False, errors=ours.non_2xx),
    ]
