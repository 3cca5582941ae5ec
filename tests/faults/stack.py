"""The stack as `make run` starts it (supervisord over the Procfile), in a var directory of its own."""

from __future__ import annotations

import fcntl
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
SUPERVISORCTL = Path(sys.executable).parent / "supervisorctl"
V1 = "/web/unicornpro/v1"
# A whole stack on PostgreSQL holds about fifty connections at its busiest and the test server allows a hundred:
# the two pytest processes take turns at running one (a stack on SQLite needs no turn).
POSTGRES_STACK_TURN = Path(tempfile.gettempdir()) / "storefront-tests-postgres-stack.lock"


def free_port() -> int:
    """A loopback port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def until(condition: Callable[[], object], what: str, seconds: float = 90) -> None:
    """Wait until ``condition()`` is true; fail naming ``what`` after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        time.sleep(0.2)


def alive(pid: int) -> bool:
    """Is a process with this pid still there?"""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


class Stack:
    """Every process of the Procfile under supervisord; ``env`` adds settings (a database, a broker, ...)."""

    def __init__(self, var_dir: Path, **env: str) -> None:
        self._set_up(var_dir, ROOT / "Procfile", (free_port(), free_port()), env)

    @classmethod
    def of_procfile(cls, var_dir: Path, procfile: Path, ports: tuple[int, int], env: dict[str, str]) -> Stack:
        """The processes of another Procfile (the deployment test writes one from docker-compose.yml), on the API
        and sandbox ports their settings already name."""
        stack = cls.__new__(cls)
        stack._set_up(var_dir, procfile, ports, env)
        return stack

    def _set_up(self, var_dir: Path, procfile: Path, ports: tuple[int, int], env: dict[str, str]) -> None:
        self.var_dir = var_dir
        var_dir.mkdir(parents=True)
        self.api_port, self.sandbox_port = ports
        self.api_url = f"http://127.0.0.1:{self.api_port}"
        self.sandbox_url = f"http://127.0.0.1:{self.sandbox_port}"
        environment = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CI")}
        environment.update(
            APP_VAR_DIR=str(var_dir),
            API_PORT=str(self.api_port),
            PORTONE_SANDBOX_PORT=str(self.sandbox_port),
            PORTONE_BASE_URL=self.sandbox_url,
            APP_BASE_URL=self.api_url,
        )
        self.environment = environment | env
        self.replicas: dict[str, subprocess.Popen[bytes]] = {}
        self.procfile = procfile
        self._start_supervisor()

    def _start_supervisor(self) -> None:
        self._turn = POSTGRES_STACK_TURN.open("a") if self.environment.get("DATABASE_URL") else None
        if self._turn is not None:
            fcntl.flock(self._turn, fcntl.LOCK_EX)
        self.console = (self.var_dir / "console.log").open("ab")
        command = [sys.executable, "-m", "operations.stack", "--procfile", str(self.procfile)]
        self.supervisor = subprocess.Popen(
            [*command, "--var-dir", str(self.var_dir), "--process-logs", str(self.var_dir / "logs")],
            cwd=ROOT, env=self.environment, stdout=self.console, stderr=subprocess.STDOUT,
        )  # fmt: skip

    def start_again(self) -> None:
        """After ``stop``: every process started again, on the same var directory, database and broker."""
        assert self.supervisor.poll() is not None, "the stack is still running"
        self._start_supervisor()

    def wait_until_healthy(self) -> None:
        """Until the API answers its health check (fails with the console's output if the stack exits)."""
        until(lambda: self.supervisor.poll() is not None or self.healthy(), "the API answers its health check")
        assert self.supervisor.poll() is None, (self.var_dir / "console.log").read_text()

    def ctl(self, *args: str) -> str:
        """What supervisorctl answers."""
        result = subprocess.run(
            [str(SUPERVISORCTL), "-c", str(self.var_dir / "supervisord.conf"), *args],
            capture_output=True, text=True, timeout=30,
        )  # fmt: skip
        return result.stdout.strip()

    def pid(self, name: str) -> int:
        """The pid of a supervised process (0 when it is not running)."""
        answer = self.ctl("pid", name)
        return int(answer) if answer.isdigit() else 0

    def running(self, name: str) -> bool:
        """Is the process in supervisord's RUNNING state?"""
        return " RUNNING " in f" {self.ctl('status', name)} "

    def kill_and_see_restarted(self, name: str) -> tuple[int, int]:
        """SIGKILL a process, wait until supervisord has it running again; (killed pid, new pid)."""
        until(lambda: self.running(name), f"{name} is running")
        killed = self.pid(name)
        assert killed > 0
        os.kill(killed, signal.SIGKILL)
        until(lambda: self.pid(name) not in (0, killed), f"{name} is started again")
        until(lambda: self.running(name), f"{name} runs again")
        assert f"exited: {name} (terminated by SIGKILL; not expected)" in self.supervisor_log()
        return killed, self.pid(name)

    def healthy(self) -> bool:
        """Does the API answer its health check with 200?"""
        try:
            return httpx.get(f"{self.api_url}{V1}/health", timeout=5).status_code == 200
        except httpx.HTTPError:
            return False

    def supervisor_log(self) -> str:
        """supervisord's own log."""
        return (self.var_dir / "supervisord.log").read_text(encoding="utf-8", errors="replace")

    def spawn(self, name: str, *args: str, **env: str) -> subprocess.Popen[bytes]:
        """Start one more process beside the supervised ones (a replica: ``python -m <args>``, the stack's settings
        and ``env``), its output in ``logs/<name>.log``; ``stop`` ends it too."""
        (self.var_dir / "logs").mkdir(exist_ok=True)
        with (self.var_dir / "logs" / f"{name}.log").open("ab") as output:
            process = subprocess.Popen(
                [sys.executable, "-m", *args], cwd=ROOT, env={**self.environment, **env},
                stdout=output, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        self.replicas[name] = process
        return process

    def stop(self) -> None:
        """SIGTERM the replicas and supervisord, which stops every process it started."""
        for process in self.replicas.values():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.replicas.values():
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        if self.supervisor.poll() is None:
            self.supervisor.send_signal(signal.SIGTERM)
            try:
                self.supervisor.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.supervisor.kill()
                self.supervisor.wait()
        self.console.close()
        if self._turn is not None:
            self._turn.close()  # closing the file ends the lock
            self._turn = None
