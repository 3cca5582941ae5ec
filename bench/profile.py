"""Profiles of a running process under load, with py-spy: where the time of a request goes.

``py-spy record --format raw`` samples the process's stacks (every thread, idle ones left out) into collapsed
lines, ``frame;frame;frame count``. ``summary`` reads them into the share of samples in which each function was
on the stack (its inclusive share), which is what explains a path: the middleware, the dependencies, the
query, the validation of the answer.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from bench.harness import RESULTS

PROFILES = Path(__file__).resolve().parent / "profiles"  # summaries kept with the code (the raw stacks in results/)
FRAME = re.compile(r"^(?P<function>[^ ]+) \((?P<file>[^:]+)(?::\d+)?\)$")


def py_spy() -> str:
    """The py-spy binary (installed with the dev extras), or a clear error."""
    found = shutil.which("py-spy") or str(Path(__file__).resolve().parents[1] / ".venv/bin/py-spy")
    if not Path(found).exists():
        raise SystemExit("profiles need py-spy: .venv/bin/pip install py-spy")
    return found


@contextmanager
def recording(pid: int, output: Path, *, rate: int = 200) -> Iterator[Path]:
    """Sample ``pid`` while the block runs; the collapsed stacks are written to ``output``."""
    command = [py_spy(), "record", "--pid", str(pid), "--format", "raw", "--rate", str(rate), "--nonblocking"]
    process = subprocess.Popen([*command, "--output", str(output)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        yield output
    finally:
        process.send_signal(2)  # SIGINT: py-spy writes what it sampled and exits
        process.wait(timeout=60)


def _function(frame: str) -> str:
    match = FRAME.match(frame.strip())
    if match is None:
        return frame.strip()
    path = match.group("file")
    for marker in ("site-packages/", "/work/", "/lib/python3"):
        if marker in path:
            path = path.split(marker, 1)[1]
            break
    return f"{match.group('function')} ({path})"


def _stacks(collapsed: Path) -> Iterator[tuple[list[str], int]]:
    """Each collapsed line's frames (outermost first, the thread's name left out) and its sample count."""
    for line in collapsed.read_text(encoding="utf-8", errors="replace").splitlines():
        stack, _, count_text = line.rpartition(" ")
        if stack and count_text.isdigit():
            yield stack.split(";")[1:], int(count_text)


def summary(collapsed: Path, top: int = 25) -> list[tuple[str, float]]:
    """The ``top`` functions by the share of samples with them on the stack (0..1), busiest first."""
    on_stack: Counter[str] = Counter()
    total = 0
    for frames, count in _stacks(collapsed):
        total += count
        for function in {_function(frame) for frame in frames}:
            on_stack[function] += count
    if total == 0:
        return []
    return [(function, count / total) for function, count in on_stack.most_common(top)]


def report(title: str, collapsed: Path, top: int = 25) -> str:
    """A printable table of ``summary``."""
    lines = [f"profile of {title} ({collapsed.name}): share of busy samples with the function on the stack"]
    lines += [f"  {share:6.1%}  {function}" for function, share in summary(collapsed, top)]
    return "\n".join(lines)


def self_summary(collapsed: Path, top: int = 15) -> list[tuple[str, float]]:
    """The ``top`` functions by the share of samples in which they were the innermost frame (their own time)."""
    innermost: Counter[str] = Counter()
    total = 0
    for frames, count in _stacks(collapsed):
        total += count
        innermost[_function(frames[-1] if frames else "")] += count
    if total == 0:
        return []
    return [(function, count / total) for function, count in innermost.most_common(top)]


def saved_report(title: str, collapsed: Path, label: str = "") -> str:
    """``report`` plus the functions' own time, also written to ``bench/profiles/<title>[-label].txt``."""
    text = report(title, collapsed)
    text += "\nown time (innermost frame):\n" + "\n".join(
        f"  {share:6.1%}  {function}" for function, share in self_summary(collapsed)
    )
    PROFILES.mkdir(exist_ok=True)
    name = title.replace(" ", "-") + (f"-{label}" if label else "")
    (PROFILES / f"{name}.txt").write_text(text + "\n", encoding="utf-8")
    return text


@contextmanager
def profiled(wanted: bool, pid: Callable[[], int], title: str) -> Iterator[None]:
    """With ``wanted``, sample the process ``pid()`` names while the block runs and print ``saved_report``
    (the raw stacks are kept in bench/results/); without, just run the block."""
    if not wanted:
        yield
        return
    RESULTS.mkdir(exist_ok=True)
    output = RESULTS / f"profile-{title.replace(' ', '-')}-{datetime.now(UTC):%Y%m%dT%H%M%SZ}.txt"
    with recording(pid(), output):
        yield
    print(saved_report(title, output, os.environ.get("BENCH_PROFILE_LABEL", "")), flush=True)
