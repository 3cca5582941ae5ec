"""CPU seconds spent by each process of a stack, read from ``/proc/<pid>/stat`` (Linux only).

Throughput on a shared machine moves with everyone else's load; the CPU time a process spends on a fixed
amount of work moves much less, so the renewals benchmark reports CPU milliseconds per renewal per process.
"""

from __future__ import annotations

import os
import time
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

import psycopg

from bench.harness import smoke

TICKS = os.sysconf("SC_CLK_TCK")
# The label of a process, from the first of these found in its command line (python -m ...).
LABELS = (
    ("supervisord", "supervisor"),
    ("operations.stack", "supervisor"),
    ("-m api", "api"),
    ("projections run", "projector"),
    ("workers.reactor", "reactor"),
    ("workers beat", "beat"),
    ("portone.sandbox", "sandbox"),
)


def _stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, user + system CPU seconds) of a live process; None when it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()  # after the command name, which may hold spaces
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / TICKS


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def label(pid: int) -> str:
    """What a stack process is (``worker`` for the supervised worker, ``worker-<hostname>`` for the others)."""
    command = _command(pid)
    if "workers worker" in command:
        if "--hostname" in command:
            return "worker " + command.split("--hostname", 1)[1].split()[0].split("@")[0] + " (renewals only)"
        return "worker (all queues)"
    return next((name for needle, name in LABELS if needle in command), command.split(" -m ")[-1][:30] or str(pid))


def descendants(roots: Iterable[int]) -> set[int]:
    """The roots and every process below them."""
    parents: dict[int, list[int]] = defaultdict(list)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (stat := _stat(int(entry.name))) is not None:
            parents[stat[0]].append(int(entry.name))
    found, todo = set(), list(roots)
    while todo:
        pid = todo.pop()
        if pid not in found:
            found.add(pid)
            todo += parents.get(pid, [])
    return found


def postgres_backends(database_url: str) -> set[int]:
    """The server processes serving a PostgreSQL database (this machine's server: their /proc is readable)."""
    name = database_url.rsplit("/", 1)[1].split("?")[0]
    with psycopg.connect(database_url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as db:
        rows = db.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", (name,)).fetchall()
    return {int(row[0]) for row in rows}


class CpuMeter:
    """CPU seconds per labelled process between ``start`` and ``stop``: a stack's process tree, plus the
    PostgreSQL backends of its database when one is given (a backend opened meanwhile counts from zero,
    one closed meanwhile is lost; the pools keep theirs open)."""

    def __init__(self, roots: Iterable[int], database_url: str | None = None) -> None:
        self.roots = list(roots)
        self.database_url = database_url
        self.before: dict[int, tuple[str, float]] = {}

    def _sample(self) -> dict[int, tuple[str, float]]:
        sample = {}
        for pid in descendants(self.roots):
            if (stat := _stat(pid)) is not None:
                sample[pid] = (label(pid), stat[1])
        if self.database_url:
            for pid in postgres_backends(self.database_url):
                if (stat := _stat(pid)) is not None:
                    sample[pid] = ("postgresql", stat[1])
        return sample

    def start(self) -> None:
        """Remember every process's CPU time now."""
        self.before = self._sample()

    def stop(self) -> dict[str, float]:
        """CPU seconds per label since ``start``, largest first."""
        spent: dict[str, float] = defaultdict(float)
        for pid, (name, seconds) in self._sample().items():
            earlier = self.before.get(pid)
            spent[name] += seconds - (earlier[1] if earlier else 0.0)
        return dict(sorted(spent.items(), key=lambda item: -item[1]))


def per_item(spent: dict[str, float], items: int, item: str = "renewal") -> str:
    """``spent`` as CPU milliseconds per item, one ``label ms`` per process and the total."""
    parts = [f"{name} {seconds * 1000 / items:.2f}" for name, seconds in spent.items() if seconds > 0]
    return f"total {sum(spent.values()) * 1000 / items:.2f} ms CPU per {item}: " + ", ".join(parts)


def quiet(meter: CpuMeter, seconds: float = 180) -> None:
    """Until the stack spends under a quarter of a core over a second (the mail, views and webhooks a load causes
    are done; idle, its followers' polling costs about a tenth), at most ``seconds``; in a smoke run, at once."""
    if smoke():
        return
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        meter.start()
        time.sleep(1)
        if sum(meter.stop().values()) < 0.25:
            return
