"""A PostgreSQL server of the test's own (initdb on a free port), to stop and start at will.

Never the machine's shared server: a test that restarts its database must not disturb anyone.
As root, the cluster is made and run as the ``postgres`` user (PostgreSQL refuses to run as root).
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


def _bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}")) or [shutil.which(name) or ""]
    if not found[-1]:
        raise FileNotFoundError(f"{name} (PostgreSQL's server binaries) is not installed")
    return found[-1]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class ThrowawayPostgres:
    """initdb, start, stop, restart, and remove a cluster in a temporary directory."""

    def __init__(self) -> None:
        self.port = _free_port()
        self.home = Path(tempfile.mkdtemp(prefix="sf-throwaway-pg-"))
        self.data = self.home / "data"
        self._as_postgres = os.geteuid() == 0
        if self._as_postgres:
            shutil.chown(self.home, "postgres", "postgres")
        self._run(_bin("initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")

    @property
    def url(self) -> str:
        """The URL of its ``postgres`` database."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def start(self) -> None:
        options = f"-p {self.port} -k {self.home} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(_bin("pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(self.home / "log"), "-w", "start")

    def stop(self) -> None:
        self._run(_bin("pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def restart(self) -> None:
        self.stop()
        self.start()

    def remove(self) -> None:
        subprocess.run([_bin("pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(self.home, ignore_errors=True)

    def _run(self, *command: str) -> None:
        argv = ["runuser", "-u", "postgres", "--", *command] if self._as_postgres else list(command)
        result = subprocess.run(argv, capture_output=True, text=True, timeout=120)
        if result.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed: {result.stdout}{result.stderr}")
