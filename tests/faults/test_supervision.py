"""`make run`'s stack under supervision: a process killed outright is restarted, named in the log, and the
rest keep serving; stopping the stack stops every process it started."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[2]
SUPERVISORCTL = Path(sys.executable).parent / "supervisorctl"
KILLED_IN_TURN = ("projector", "reactor", "worker", "beat", "api")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Stack:
    """The stack started as `make run` starts it, in a var directory of its own."""

    def __init__(self, var_dir: Path) -> None:
        self.var_dir = var_dir
        var_dir.mkdir(parents=True)
        self.api_port = _free_port()
        sandbox_port = _free_port()
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CI")}
        env.update(
            APP_VAR_DIR=str(var_dir),
            API_PORT=str(self.api_port),
            PORTONE_SANDBOX_PORT=str(sandbox_port),
            PORTONE_BASE_URL=f"http://127.0.0.1:{sandbox_port}",
            APP_BASE_URL=f"http://127.0.0.1:{self.api_port}",
        )
        self.console = (var_dir / "console.log").open("wb")
        command = [sys.executable, "-m", "bootstrap.stack", "--var-dir", str(var_dir)]
        self.supervisor = subprocess.Popen(
            [*command, "--process-logs", str(var_dir / "logs")],
            cwd=ROOT, env=env, stdout=self.console, stderr=subprocess.STDOUT,
        )  # fmt: skip

    def ctl(self, *args: str) -> str:
        result = subprocess.run(
            [str(SUPERVISORCTL), "-c", str(self.var_dir / "supervisord.conf"), *args],
            capture_output=True, text=True, timeout=30,
        )  # fmt: skip
        return result.stdout.strip()

    def pid(self, name: str) -> int:
        answer = self.ctl("pid", name)
        return int(answer) if answer.isdigit() else 0

    def running(self, name: str) -> bool:
        return " RUNNING " in f" {self.ctl('status', name)} "

    def healthy(self) -> bool:
        try:
            return httpx.get(f"http://127.0.0.1:{self.api_port}/web/unicornpro/v1/health", timeout=5).status_code == 200
        except httpx.HTTPError:
            return False

    def supervisor_log(self) -> str:
        return (self.var_dir / "supervisord.log").read_text(encoding="utf-8", errors="replace")

    def stop(self) -> None:
        if self.supervisor.poll() is None:
            self.supervisor.send_signal(signal.SIGTERM)
            try:
                self.supervisor.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.supervisor.kill()
                self.supervisor.wait()
        self.console.close()


def _until(condition: object, what: str, seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        time.sleep(0.2)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[Stack]:
    started = Stack(tmp_path / "var")
    try:
        _until(lambda: started.supervisor.poll() is not None or started.healthy(), "the API answers its health check")
        assert started.supervisor.poll() is None, (tmp_path / "var" / "console.log").read_text()
        yield started
    finally:
        started.stop()


def test_each_process_killed_outright_is_restarted_and_named_while_the_site_keeps_serving(stack: Stack) -> None:
    started_pids = {}
    for name in KILLED_IN_TURN:
        _until(lambda name=name: stack.running(name), f"{name} is running")  # type: ignore[misc]
        killed = stack.pid(name)
        assert killed > 0
        os.kill(killed, signal.SIGKILL)
        _until(lambda name=name, killed=killed: stack.pid(name) not in (0, killed), f"{name} is started again")  # type: ignore[misc]
        _until(lambda name=name: stack.running(name), f"{name} runs again")  # type: ignore[misc]
        started_pids[name] = stack.pid(name)
        assert f"exited: {name} (terminated by SIGKILL; not expected)" in stack.supervisor_log()
        print(f"{name}: pid {killed} killed, restarted as pid {started_pids[name]}")

    _until(stack.healthy, "the API answers again after its own restart")
    assert all(stack.running(name) for name in (*KILLED_IN_TURN, "portone"))

    stack.stop()
    assert stack.supervisor.returncode == 0
    _until(lambda: not any(_alive(pid) for pid in started_pids.values()), "every process is stopped", seconds=30)
