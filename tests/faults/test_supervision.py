"""`make run`'s stack under supervision: a process killed outright is restarted, named in the log, and the
rest keep serving; stopping the stack stops every process it started."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.faults.stack import Stack, alive, until

pytestmark = pytest.mark.integration
KILLED_IN_TURN = ("projector", "reactor", "worker", "beat", "api")


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[Stack]:
    started = Stack(tmp_path / "var")
    try:
        started.wait_until_healthy()
        yield started
    finally:
        started.stop()


def test_each_process_killed_outright_is_restarted_and_named_while_the_site_keeps_serving(stack: Stack) -> None:
    started_pids = {}
    for name in KILLED_IN_TURN:
        killed, started_pids[name] = stack.kill_and_see_restarted(name)
        print(f"{name}: pid {killed} killed, restarted as pid {started_pids[name]}")

    until(stack.healthy, "the API answers again after its own restart")
    assert all(stack.running(name) for name in (*KILLED_IN_TURN, "portone"))

    stack.stop()
    assert stack.supervisor.returncode == 0
    until(lambda: not any(alive(pid) for pid in started_pids.values()), "every process is stopped", seconds=30)
