"""Redis goes down for a while: purchases still succeed (the log is the outbox), health says degraded, and
every receipt mail goes out, once, when Redis is back.

The broker is a Redis server of the test's own; the reactor and a Celery worker run as processes.
"""

from __future__ import annotations

import email
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.services import Services
from config.settings import Settings
from tests.conftest import make_settings
from tests.fakes import PlainHasher
from tests.integration.portone.harness import IMP_KEY, IMP_SECRET, RunningSandbox
from tests.integration.purchases.desk import GOOD_CARD, V1
from tests.support import reactions_all_run, running_projector

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[2]


class ThrowawayRedis:
    """redis-server on a free port, nothing kept on disk; stopped and started again on the same port."""

    def __init__(self, workdir: Path) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = int(probe.getsockname()[1])
        self.workdir = workdir
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        server = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.process = subprocess.Popen(
            [server, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.workdir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        _until(self._answers, "redis answers", seconds=10)

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None

    def _answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as connection:
                connection.sendall(b"PING\r\n")
                return connection.recv(16).startswith(b"+PONG")
        except OSError:
            return False


def _until(condition: Any, what: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        time.sleep(0.1)


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[ThrowawayRedis]:
    server = ThrowawayRedis(tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def stack(settings: Settings, redis_server: ThrowawayRedis, sandbox: RunningSandbox) -> Iterator[Settings]:
    """The reactor and a worker as processes, on the test's Redis and the test's database."""
    assert settings.database_url
    values = {
        "DATABASE_URL": settings.database_url,
        "REDIS_URL": redis_server.url,
        "PORTONE_BASE_URL": sandbox.base_url,
        "PORTONE_IMP_KEY": IMP_KEY,
        "PORTONE_IMP_SECRET": IMP_SECRET,
        "PROJECTOR_POLL_SECONDS": "0.05",
    }
    stack_settings = make_settings(settings.var_dir, **values)
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DATABASE_", "REDIS_"))}
    env.update(APP_VAR_DIR=str(settings.var_dir), APP_ENV="test", **values)
    logs = settings.var_dir / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    commands = {
        "reactor": [sys.executable, "-m", "workers.reactor"],
        "worker": [sys.executable, "-m", "workers", "worker", "--concurrency", "1", "--loglevel", "INFO",
                   "--without-gossip", "--without-mingle", "--without-heartbeat"],
    }  # fmt: skip
    processes = [_start(command, env, logs / f"{name}.log") for name, command in commands.items()]
    try:
        yield stack_settings
    finally:
        for process in processes:
            os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)


def _start(command: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        command, cwd=ROOT, env=env, start_new_session=True, stdout=log.open("wb"), stderr=subprocess.STDOUT
    )


def receipts(settings: Settings) -> list[str]:
    """To whom the outbox's mails went."""
    return sorted(str(email.message_from_bytes(path.read_bytes())["To"]) for path in settings.outbox_dir.glob("*.eml"))


def buy_as_guest(client: TestClient, sandbox: RunningSandbox, address: str) -> None:
    order = client.post(
        f"{V1}/payments/licenses/new",
        json={"licenseId": 121, "countryCode": "KR", "paymentMethod": "creditCard", "email": address},
    )
    assert order.status_code == 200, order.text
    placed = order.json()
    paid = sandbox.checkout(
        pg=placed["pg"], pay_method=placed["payMethod"], merchant_uid=placed["merchantUid"], name=placed["name"],
        amount=placed["amount"], currency=placed["currency"], buyer_email=placed["buyerEmail"],
        card_number=GOOD_CARD["cardNumber"],
    )  # fmt: skip
    confirmed = client.post(
        f"{V1}/payments/licenses/new/confirm",
        params={"localeCode": "ko"},
        json={"impUid": paid["imp_uid"], "merchantUid": placed["merchantUid"]},
    )
    assert confirmed.status_code == 200, confirmed.text
    assert confirmed.json()["state"] == "paid"


def test_purchases_go_on_while_redis_is_down_and_every_mail_goes_out_once_it_is_back(
    stack: Settings, redis_server: ThrowawayRedis, sandbox: RunningSandbox
) -> None:
    services = Services.build(stack.model_copy(update={"test_admin_token": "operator"}), hasher=PlainHasher())
    client = TestClient(create_app(services=services))
    report = f"{V1}/operator/health"  # the operators' health report (the public one says only up or down)
    operator = {"X-Admin-Token": "operator"}
    with running_projector(stack):
        buy_as_guest(client, sandbox, "before@example.com")
        _until(lambda: len(receipts(stack)) >= 1, "the first receipt is mailed")

        redis_server.stop()
        assert client.get(f"{V1}/health").json() == {"status": "up"}
        health = client.get(report, headers=operator)
        assert (health.status_code, health.json()["status"]) == (200, "degraded")
        during = [f"during{number}@example.com" for number in range(3)]
        for address in during:
            buy_as_guest(client, sandbox, address)  # the log is the outbox: nothing needs the broker now
        # The reactor meets the dead broker and stalls (it does not crash, nor skip); health says where.
        _until(
            lambda: "reactions" in client.get(report, headers=operator).json()["stalled"], "health reports the stall"
        )
        assert receipts(stack) == ["before@example.com"]

        redis_server.start()
        _until(lambda: len(receipts(stack)) >= 4, "the held-back receipts are mailed", seconds=90)
        _until(lambda: client.get(report, headers=operator).json()["status"] == "ok", "health is ok again")
        _until(lambda: reactions_all_run(stack), "every task the log calls for has run")  # so a double is in
    services.close()
    assert receipts(stack) == sorted(["before@example.com", *during])
    print(f"Redis down for {len(during)} purchases: all confirmed, {len(receipts(stack))} receipts, one each")
