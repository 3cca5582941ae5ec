"""The production layout of docker-compose.yml as processes on this machine, with the compose file's environment.

What a container gives each service, and how the test stands in for it:
- the image's interpreter: ``python`` is the project's virtualenv, first on PATH;
- each named volume: a directory of the test's own, at every place the mount point appears (settings, arguments);
- a container's own network: the API listens on a free loopback port instead of ``0.0.0.0:8000``;
- the compose file's ``postgres`` and ``redis`` services: a throwaway PostgreSQL database and a Redis database;
- PortOne: the local sandbox as a process beside them (``PORTONE_BASE_URL``), which production settings allow only
  with ``PORTONE_SANDBOX_IN_PRODUCTION=deployment-test``, a variable no deployment file sets (tests check that);
- the operator's variables (``${...}`` in the compose file): the test's values below.
Everything else (commands, environment, health checks) is the compose file's own.
"""

from __future__ import annotations

import base64
import os
import secrets
import shlex
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from config.settings import SANDBOX_ACKNOWLEDGED
from tests.deployment.compose import Service, services
from tests.faults.stack import ROOT, Stack

VENV_BIN = Path(sys.executable).parent
PUBLIC_ADDRESS = "https://shop.deployment-test.example"
SANDBOX_KEY, SANDBOX_SECRET = "deployment-imp-key", "deployment-imp-secret"
ANY_ADDRESS, LOOPBACK = "0.0.0.0", "127.0.0.1"


def operator_values(sandbox_url: str) -> dict[str, str]:
    """What an operator supplies (the secrets, the public address, PortOne's address and credentials, the company
    block)."""
    return {
        "APP_BASE_URL": PUBLIC_ADDRESS,
        "AUTH_SECRET": secrets.token_urlsafe(32),
        "ZENDESK_SECRET": secrets.token_urlsafe(32),
        "LICENCE_SIGNING_SECRET": secrets.token_urlsafe(32),
        "AUDIT_SIGNING_KEY": base64.b64encode(secrets.token_bytes(32)).decode(),
        "PORTONE_BASE_URL": sandbox_url,
        "PORTONE_IMP_KEY": SANDBOX_KEY,
        "PORTONE_IMP_SECRET": SANDBOX_SECRET,
        "COMPANY_NAME": "Unicorn Inc.",
        "COMPANY_REPRESENTATIVE": "Kim Uni",
        "COMPANY_ADDRESS": "123 Teheran-ro, Seoul",
        "COMPANY_BUSINESS_NUMBER": "123-45-67890",
        "COMPANY_MAIL_ORDER_NUMBER": "2026-Seoul-01234",
        "COMPANY_PHONE": "02-1234-5678",
        "COMPANY_EMAIL": "help@unicornpro.example",
        "COMPANY_HOSTING_PROVIDER": "Example Cloud Inc.",
        "JP_SELLER_NAME": "ユニコーン株式会社",
        "JP_SELLER_ADDRESS": "大韓民国ソウル特別市江南区テヘラン路123",
        "JP_SELLER_PHONE": "+82-2-1234-5678",
        "JP_SELLER_RESPONSIBLE": "キム・ユニ",
    }


@dataclass
class ProductionStack:
    """The compose file's application services (and the sandbox) under the test's supervisor."""

    stack: Stack
    services: list[Service]
    environment: dict[str, str]
    volume: Path

    @classmethod
    def start(cls, root: Path, database_url: str, redis_url: str) -> ProductionStack:
        """Write a Procfile of the compose services and start it (``root/stack`` is the supervisor's directory)."""
        from tests.faults.stack import free_port

        api_port, sandbox_port = free_port(), free_port()
        sandbox_url = f"http://127.0.0.1:{sandbox_port}"
        found = services(operator_values(sandbox_url))
        environments = {tuple(sorted(service.environment.items())) for service in found}
        assert len(environments) == 1, "every service has the same environment (the compose file's x-app)"
        volumes = {name: mount for service in found for name, mount in service.volumes.items()}
        assert len(volumes) == 1, "one volume, mounted in every service"
        (mount,) = volumes.values()
        volume = root / "volume"
        volume.mkdir(parents=True)
        machine = _OnThisMachine(mount, volume, api_port)

        environment = {key: machine.value(value) for key, value in found[0].environment.items()}
        environment |= {
            "DATABASE_URL": database_url,
            "REDIS_URL": redis_url,
            "PORTONE_SANDBOX_IN_PRODUCTION": SANDBOX_ACKNOWLEDGED,
            "PATH": f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        }
        lines = [f"{service.name}: {shlex.join(machine.command(service))}" for service in found]
        notice_url = f"http://127.0.0.1:{api_port}/web/unicornpro/v1/payments/webhook"
        sandbox = ["python", "-m", "integrations.portone.sandbox", "--host", "127.0.0.1", "--port", str(sandbox_port)]
        sandbox += ["--db", str(root / "portone-sandbox.sqlite3"), "--notice-url", notice_url]
        lines.append(f"portone: {shlex.join(sandbox)}")
        procfile = root / "Procfile"
        procfile.write_text("\n".join(lines) + "\n", encoding="utf-8")
        stack = Stack.of_procfile(root / "stack", procfile, (api_port, sandbox_port), environment)
        started = cls(stack, [machine.service(service) for service in found], environment, volume)
        return started

    def wait_until_every_service_is_healthy(self, seconds: float = 120) -> None:
        """Once the API answers, each service's health check side by side until it passes (each try starts a
        Python process, as Docker's would: one try a second, not a crowd of them while the services start)."""
        self.stack.wait_until_healthy()
        with ThreadPoolExecutor(len(self.services)) as checks:
            waits = [checks.submit(self._until_healthy, service, seconds) for service in self.services]
            for wait in waits:
                wait.result()

    def _until_healthy(self, service: Service, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while not self.healthy(service):
            assert time.monotonic() < deadline, f"timed out waiting until {service.name} passes its health check"
            time.sleep(1)  # the pause between tries of a health check (Docker's interval), not a wait for a point

    def healthy(self, service: Service) -> bool:
        """Does the service's own health check (the compose file's ``test``) pass now?"""
        kind, *check = service.healthcheck
        argv = check if kind == "CMD" else ["/bin/sh", "-c", check[0]]
        # In a container HOSTNAME is its host name, which names the Celery worker (celery@<host name>).
        env = {**self.stack.environment, "HOSTNAME": socket.gethostname()}
        done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, timeout=60, check=False)
        return done.returncode == 0


@dataclass(frozen=True)
class _OnThisMachine:
    """The container's paths and port as this machine's: the volume's directory, the API's free port."""

    mount: str
    volume: Path
    api_port: int

    def value(self, text: str) -> str:
        return text.replace(self.mount, str(self.volume))

    def command(self, service: Service) -> list[str]:
        published = {port.split(":")[-1] for port in service.ports}
        argv = [self.value(part) for part in service.command]
        return [LOOPBACK if part == ANY_ADDRESS else str(self.api_port) if part in published else part for part in argv]

    def service(self, service: Service) -> Service:
        """The service with its command and health check as they run here."""
        check = [self.value(part) for part in service.healthcheck]
        for port in (published.split(":")[-1] for published in service.ports):
            check = [part.replace(f"{LOOPBACK}:{port}/", f"{LOOPBACK}:{self.api_port}/") for part in check]
        return Service(service.name, self.command(service), service.environment, check, service.volumes, service.ports)
