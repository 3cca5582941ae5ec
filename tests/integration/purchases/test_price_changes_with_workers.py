"""A price change of the monthly plan, over HTTP with the real reactor and Celery worker on Redis, the shared test
clock moving, and a real SMTP server, on both stores (docs/catalogue.md's rule):

a rise asks the subscriber for consent by mail at once; they agree on their licence page; the renewal within 30 days of
the request keeps the old price, and the first renewal 30 or more days after it charges the new one; a later cut
applies at the very next renewal, with no request. The
purchase history names the catalogue version each charge was priced under."""

from __future__ import annotations

import email
import email.header
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime, timedelta
from email.message import Message
from typing import Any
from uuid import uuid4

import pytest
from aiosmtpd.controller import Controller
from fastapi.testclient import TestClient

from config.settings import Settings
from domain.accounts.tokens import issue_access_token
from domain.store import Storefront
from eventlog.tracking import wait_for_views
from projections.catalogue import all_views
from tests.integration.purchases.test_renewals_with_workers import (
    ADMIN,
    CARD,
    ROOT,
    V1,
    _env,
    _wait,
    client,
    stack_settings,
)
from tests.integration.test_staff_api import first_owner_link
from tests.staff_codes import enrol_with_code_app, sign_in_with_code
from tests.support import every_process_sees_the_moved_clock, reactions_all_run, register, running_projector
from workers.celery_app import create_celery

__all__ = ["client", "stack_settings"]
pytestmark = pytest.mark.integration

MONTHLY = 111
NOTICE_SUBJECT = "[유니콘] 구독 가격 인상 동의 요청"


class _Inbox:
    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append(email.message_from_bytes(envelope.content))
        return "250 OK"

    def subjects(self) -> list[str]:
        return [str(email.header.make_header(email.header.decode_header(m["Subject"]))) for m in self.messages]


@pytest.fixture
def inbox() -> Iterator[tuple[int, _Inbox]]:
    found = _Inbox()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(found, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield port, found
    finally:
        controller.stop()


def _start(module: str, settings: Settings, smtp_port: int, *args: str) -> subprocess.Popen[bytes]:
    env = {**_env(settings), "SMTP_URL": f"smtp://127.0.0.1:{smtp_port}", "PROJECTOR_POLL_SECONDS": "0.05"}
    return subprocess.Popen(
        [sys.executable, "-m", module, *args],
        cwd=ROOT,
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


class Shop:
    """The store over HTTP: a subscriber, the owner in the back office (prices are theirs and marketing's), and the
    test clock."""

    def __init__(self, client: TestClient, settings: Settings) -> None:
        self.client = client
        self.settings = settings
        self.services = client.app.state.services  # type: ignore[attr-defined]
        self.store = Storefront(settings.event_store_env)
        self.account_id = register(self.store, "riser@example.com").account_id
        self.csrf = ""
        self.secret = ""

    def now(self) -> datetime:
        return datetime.fromisoformat(self.staff("GET", "/catalogue").json()["now"])

    def bearer(self) -> dict[str, str]:
        token = issue_access_token(
            self.settings.auth_secret, self.account_id, 1, self.services.clock.now(), session_id=uuid4()
        )
        return {"Authorization": f"Bearer {token.token}"}

    def move(self, **delta: float) -> None:
        moved = self.client.post(f"{V1}/test-harness/clock/advance", json=delta, headers=ADMIN)
        assert moved.status_code == 200, moved.text
        every_process_sees_the_moved_clock()

    def sign_in(self) -> None:
        """The owner signs in with a one-time code (the session idles out while months pass)."""
        now = self.services.clock.now()
        if not self.secret:
            self.secret, answer = enrol_with_code_app(self.client, f"{V1}/staff", first_owner_link(self.services), now)
        else:
            answer = sign_in_with_code(self.client, f"{V1}/staff", "boss@example.com", self.secret, now)
        assert answer.status_code == 200, answer.text
        self.csrf = answer.json()["csrf"]

    def staff(self, method: str, path: str, json: object = None) -> Any:
        return self.client.request(method, f"{V1}/staff{path}", json=json, headers={"X-Staff-CSRF": self.csrf})

    def reprice(self, price: int, reason: str) -> int:
        """Schedule a version pricing the monthly plan at ``price`` won in Korea, in force in a minute."""
        self.sign_in()
        latest = self.staff("GET", "/catalogue").json()["versions"][0]["licences"]
        for licence in latest:
            if licence["id"] == MONTHLY:
                next(item for item in licence["prices"] if item["countryCode"] == "KR")["price"] = price
        effective = (self.now() + timedelta(minutes=1)).isoformat()
        made = self.staff(
            "POST", "/catalogue/versions", {"licences": latest, "effectiveAt": effective, "reason": reason}
        )
        assert made.status_code == 201, made.text
        return int(made.json()["version"])

    def renew(self, charges: int) -> None:
        """Beat's renewal pass, waited for until the history holds ``charges`` paid charges (the task is the
        worker's to pick up: nothing else says when it ran) and what it called for ran."""
        create_celery(self.settings).send_task("subscriptions.renew_due")  # what beat sends every minute
        assert _wait(lambda: len(self.charges()) >= charges, 120), "the renewal pass charged"
        assert _wait(lambda: reactions_all_run(self.settings), 120), "the pass and what it called for ran"
        views = self.services.views
        names = [view.name for view in all_views()]
        assert wait_for_views(views, self.store.name, names, self.store.max_notification_id(), 30), "views caught up"

    def charges(self) -> list[tuple[int, int | None]]:
        """(amount, catalogue version) of each paid charge, oldest first."""
        history = self.client.get(f"{V1}/payments/licenses", headers=self.bearer()).json()
        paid = [record for record in history if record["status"] == "paid"]
        paid.sort(key=lambda record: int(record["merchantUid"].split("-")[2]))  # sub-<id>-<period>-<attempt>
        return [(record["amount"], record["catalogueVersion"]) for record in paid]


def test_an_agreed_rise_waits_30_days_from_its_request_and_a_cut_applies_at_the_next_renewal(
    stack_settings: Settings, client: TestClient, inbox: tuple[int, _Inbox]
) -> None:
    smtp_port, mails = inbox
    with running_projector(stack_settings):
        shop = Shop(client, stack_settings)
        processes = [
            _start("workers.reactor", stack_settings, smtp_port),
            _start(
                "workers",
                stack_settings,
                smtp_port,
                "worker",
                "--concurrency",
                "2",
                "--loglevel",
                "WARNING",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
            ),
        ]
        try:
            started = client.post(
                f"{V1}/payments/licenses/subscribe/new/new-billingkey",
                json={"licenseId": MONTHLY, "countryCode": "KR", "card": CARD},
                headers=shop.bearer(),
            )
            assert started.status_code == 200, started.text
            assert started.json()["price"] == 2900

            # Ten days in, the monthly plan rises to 3,500 won: the subscriber is asked by mail at once, and agrees.
            shop.move(days=10)
            assert shop.reprice(3500, "costs went up") == 2
            assert _wait(lambda: NOTICE_SUBJECT in mails.subjects(), 120), mails.subjects()
            [notice] = [m for m in mails.messages if NOTICE_SUBJECT in str(email.header.make_header(
                email.header.decode_header(m["Subject"])))]  # fmt: skip
            assert notice["To"] == "riser@example.com"
            text = notice.get_payload(decode=True).decode()  # type: ignore[union-attr]
            assert "2,900원" in text and "3,500원" in text
            licence = started.json()["userLicenseId"]
            agreed = client.post(f"{V1}/payments/licenses/subscribe/{licence}/price-rise/agree", headers=shop.bearer())
            assert agreed.status_code == 200 and agreed.json()["priceRise"]["answer"] == "agreed", agreed.text
            listed = client.get(f"{V1}/purchasable-licenses/new", params={"licenseIds": str(MONTHLY)}).json()
            shop.move(seconds=120)  # the new version is in force for new buyers a minute after it was scheduled
            assert _wait(
                lambda: (
                    client.get(f"{V1}/purchasable-licenses/new", params={"licenseIds": str(MONTHLY)}).json() != listed
                ),
                10,
            ), "the storefront shows the new price within seconds"

            # Day 30: the renewal comes 20 days after the request, so it keeps the old price.
            shop.move(days=20, seconds=60)
            shop.renew(charges=2)
            assert shop.charges() == [(2900, 1), (2900, 1)]

            # Day 60: the first renewal 30 or more days after the request charges the new (agreed) price.
            shop.move(days=30)
            shop.renew(charges=3)
            assert shop.charges() == [(2900, 1), (2900, 1), (3500, 2)]
            assert mails.subjects().count(NOTICE_SUBJECT) == 1, "one request, however often the sweep runs"

            # A cut to 2,500 won applies at the very next renewal, with no notice.
            assert shop.reprice(2500, "a spring sale") == 3
            shop.move(days=30)
            shop.renew(charges=4)
            assert shop.charges() == [(2900, 1), (2900, 1), (3500, 2), (2500, 3)]
            assert mails.subjects().count(NOTICE_SUBJECT) == 1
        finally:
            for process in processes:
                os.killpg(process.pid, signal.SIGTERM)
            for process in processes:
                process.wait(timeout=20)
            shop.store.close()
