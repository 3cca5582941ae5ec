"""The embedded broker (`make run`'s default, a SQLite file) loses no task and runs none twice.

kombu's file-system transport, used before it, let a reader take a message file its publisher had created
but not yet written; the worker died on a JSONDecodeError and the mail it carried was never sent (kombu issue
1551). Here producers and Celery workers are processes of their own, as under `make run`.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from config.settings import Settings
from integrations.broker import broker_transport_options
from tests.conftest import make_settings

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[2]
MODULE = "tests.integration.broker_processes"
PRODUCERS, TASKS_EACH = 6, 350


class Processes:
    """Producers and workers started with the test's settings; every one still running is killed at the end."""

    def __init__(self, var_dir: Path, **env: str) -> None:
        self.var_dir = var_dir
        self.env = {**os.environ, "APP_VAR_DIR": str(var_dir), "APP_ENV": "test", **env}
        self.started: list[subprocess.Popen[bytes]] = []
        (var_dir / "logs").mkdir(parents=True, exist_ok=True)

    def start(self, name: str, *args: str) -> subprocess.Popen[bytes]:
        """``python -m tests.integration.broker_processes <args>``, its output in ``logs/<name>.log``."""
        with (self.var_dir / "logs" / f"{name}.log").open("ab") as log:
            process = subprocess.Popen(
                [sys.executable, "-m", MODULE, *args], cwd=ROOT, env=self.env,
                stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        self.started.append(process)
        return process

    def worker(self, name: str, concurrency: int = 2) -> subprocess.Popen[bytes]:
        """A Celery worker as the Procfile starts one (prefork)."""
        return self.start(
            name, "worker", "--loglevel", "INFO", "--pool", "prefork", "--concurrency", str(concurrency),
            "--without-gossip", "--without-mingle", "--hostname", f"{name}@%h",
        )  # fmt: skip

    def log(self, name: str) -> str:
        return (self.var_dir / "logs" / f"{name}.log").read_text(errors="replace")

    def kill_all(self) -> None:
        for process in self.started:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


@pytest.fixture
def processes(tmp_path: Path) -> Iterator[Processes]:
    started = Processes(tmp_path, BROKER_VISIBILITY_TIMEOUT="3")
    yield started
    started.kill_all()


def ran(var_dir: Path) -> list[tuple[str, bool]]:
    """Every task run, by any process: (task id, whether it was a redelivery)."""
    lines = [line for file in sorted((var_dir / "ran").glob("*.txt")) for line in file.read_text().splitlines()]
    return [(task_id, flag == "1") for task_id, flag in (line.split() for line in lines)]


def until(condition: Callable[[], object], what: str, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        time.sleep(0.1)


def messages_left(settings: Settings) -> int:
    database = broker_transport_options(settings)["database"]
    with sqlite3.connect(database) as db:
        return int(db.execute("SELECT count(*) FROM messages").fetchone()[0])


def test_many_producers_and_two_workers_run_every_task_once_and_no_worker_dies(
    processes: Processes, tmp_path: Path
) -> None:
    started = time.monotonic()
    workers = [processes.worker("first"), processes.worker("second")]
    producers = [processes.start(f"producer-{n}", "produce", f"p{n}", str(TASKS_EACH)) for n in range(PRODUCERS)]
    for producer in producers:
        assert producer.wait(timeout=120) == 0, processes.log(f"producer-{producers.index(producer)}")
    total = PRODUCERS * TASKS_EACH
    until(lambda: len(ran(tmp_path)) >= total, f"{total} tasks ran")

    counts = Counter(task_id for task_id, _ in ran(tmp_path))
    assert set(counts) == {f"p{n}-{i}" for n in range(PRODUCERS) for i in range(TASKS_EACH)}, "none lost"
    assert [task for task, times in counts.items() if times > 1] == [], "none ran twice"
    assert all(worker.poll() is None for worker in workers), "no worker died"
    for name in ("first", "second"):
        assert "Unrecoverable error" not in processes.log(name)
        assert "Traceback" not in processes.log(name)
    until(lambda: messages_left(make_settings(tmp_path)) == 0, "every message is acknowledged", 20)
    per_worker = [len(file.read_text().splitlines()) for file in (tmp_path / "ran").glob("*.txt")]
    print(
        f"{total} tasks from {PRODUCERS} producers, run by {len(per_worker)} pool processes {sorted(per_worker)}"
        f" in {time.monotonic() - started:.1f} s"
    )


def test_a_task_whose_worker_is_killed_mid_task_runs_again_once_its_lease_runs_out(
    processes: Processes, tmp_path: Path
) -> None:
    first = processes.worker("first", concurrency=1)
    processes.start("producer", "produce-hold")
    until(lambda: any((tmp_path / "started").glob("*")), "the held task has started")

    os.killpg(first.pid, signal.SIGKILL)  # the worker and its pool process, holding the unacknowledged task
    first.wait()
    killed_at = time.monotonic()
    processes.worker("second", concurrency=1)
    until(lambda: ran(tmp_path), "the task ran again")

    held_id = next((tmp_path / "started").glob("*")).read_text()
    assert ran(tmp_path) == [(held_id, True)]
    until(lambda: messages_left(make_settings(tmp_path)) == 0, "the message is acknowledged", 20)
    print(f"run again {time.monotonic() - killed_at:.1f} s after its worker was killed (visibility timeout 3 s)")


def test_a_task_whose_pool_process_dies_is_requeued_at_once(processes: Processes, tmp_path: Path) -> None:
    processes.env["BROKER_VISIBILITY_TIMEOUT"] = "3600"  # only the requeue can bring it back within the test
    processes.worker("first", concurrency=1)
    processes.start("producer", "produce-hold")
    until(lambda: any((tmp_path / "started").glob("*")), "the held task has started")

    pool_process = next((tmp_path / "started").glob("*"))
    os.kill(int(pool_process.name), signal.SIGKILL)  # the worker sees it lost and rejects the task, requeued
    until(lambda: ran(tmp_path), "the task ran again", 30)

    assert ran(tmp_path) == [(pool_process.read_text(), True)]
