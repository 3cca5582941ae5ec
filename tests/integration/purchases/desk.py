"""A subscriber's desk: the API over HTTP, the workers' tasks and the sandbox's PG window, on one test clock."""

from __future__ import annotations

import email
import email.header
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.services import Services
from config.settings import Settings
from domain.subscriptions.renewal import renew_if_due
from eventlog.tracking import wait_for_views
from integrations.portone.gateway import PortOneGateway
from projections.catalogue import all_views
from projections.subscriptions import due_subscriptions
from tests.fakes import PlainHasher
from tests.integration.portone.harness import RunningSandbox, SharedClock, TestClock
from tests.support import register_confirmed, running_projector
from workers.reactions import REACTIONS
from workers.tasks.subscriptions import deliver_subscription_mail

V1 = "/web/unicornpro/v1"
SUBSCRIBER = "sub@example.com"
PASSWORD = "abcd1234"
GOOD_CARD = {
    "cardNumber": "4111111111111111",
    "expiryYear": 2029,
    "expiryMonth": 12,
    "password": "12",
    "birth": "900101",
}
SOON_BROKE = {**GOOD_CARD, "cardNumber": "4111111111110003"}


def mail_subject(path: Path) -> str:
    message = email.message_from_bytes(path.read_bytes())
    return str(email.header.make_header(email.header.decode_header(message["Subject"])))


@dataclass
class Desk:
    client: TestClient
    services: Services
    clock: TestClock
    sandbox: RunningSandbox

    tokens: dict[str, tuple[str, datetime]] = field(default_factory=dict)

    def call(self, method: str, path: str, *, as_email: str = SUBSCRIBER, **kwargs: Any) -> Any:
        """A bearer call as ``as_email``."""
        headers = {"Authorization": f"Bearer {self.access_token(as_email)}"}
        return self.client.request(method, f"{V1}{path}", headers=headers, **kwargs)

    def access_token(self, address: str) -> str:
        """A live access token: logins are rate limited, and tokens last 30 minutes of the moving clock."""
        kept = self.tokens.get(address)
        if kept is None or self.clock() >= kept[1]:
            login = self.client.post(f"{V1}/auth/login", json={"email": address, "pw": PASSWORD})
            assert login.status_code == 200, login.text
            kept = (login.json()["accessToken"], self.clock() + timedelta(minutes=25))
            self.tokens[address] = kept
        return kept[0]

    def guest_call(self, method: str, path: str, **kwargs: Any) -> Any:
        """A call without a bearer token."""
        return self.client.request(method, f"{V1}{path}", **kwargs)

    def register(self, address: str) -> None:
        """Another customer with the desk's password, who confirms the address from the mail."""
        register_confirmed(self.client, self.services, address, PASSWORD)

    def issue_key_in_window(
        self, window: dict[str, Any], *, card: str = "4111111111111111", action: str = "approve"
    ) -> Any:
        """The customer in the PG window of GET /billingkeys/customerUid: request_pay with the customerUid."""
        return self.sandbox.checkout(
            pg=window["pg"],
            pay_method=window["payMethod"],
            merchant_uid=window["merchantUid"],
            amount=window["amount"],
            currency=window["currency"],
            customer_uid=window["customerUid"],
            name="Unicorn Pro auto-payment",
            card_number=card,
            action=action,
        )

    def beat(self) -> list[str]:
        """What beat and the workers do next minute (renew_due, each renew_one); returns the merchantUids charged."""
        self.views_caught_up()
        services = self.services
        due = due_subscriptions(services.views, services.clock.now())
        outcomes = [renew_if_due(services.store, services.clock, services.payments, each) for each in due]
        self.views_caught_up()
        return [outcome.merchant_uid for outcome in outcomes if outcome.merchant_uid]

    def views_caught_up(self) -> None:
        """Every view has read the whole log (the beat reads one, the licence pages read the others)."""
        store = self.services.store
        names = [view.name for view in all_views()]
        assert wait_for_views(self.services.views, store.name, names, store.max_notification_id(), 10)

    def deliver_mails(self) -> list[str]:
        """What the reactor and the worker do with the subscription mails; returns every subject sent."""
        store = self.services.store
        for notification in store.recorder.select_notifications(start=1, limit=10_000):
            event = store.mapper.to_domain_event(notification)
            reaction = REACTIONS.get(type(event))
            for index, call in enumerate(reaction(event) if reaction else []):
                if call.name == "subscriptions.send_mail":
                    when = call.kwargs["when"]
                    deliver_subscription_mail(
                        self.services,
                        task_id=f"Storefront-{notification.id}-{index}",
                        subscription_id=UUID(call.kwargs["subscription_id"]),
                        kind=call.kwargs["kind"],
                        reason=call.kwargs.get("reason", ""),
                        when=datetime.fromisoformat(when) if when else None,
                        amount=call.kwargs.get("amount"),
                    )
        return [mail_subject(path) for path in self.services.settings.outbox_dir.glob("*.eml")]

    def history(self) -> list[dict[str, Any]]:
        return self.history_of(SUBSCRIBER)

    def history_of(self, address: str) -> list[dict[str, Any]]:
        """Someone's purchase history, once the views have every write."""
        self.views_caught_up()
        result: list[dict[str, Any]] = self.call("GET", "/payments/licenses", as_email=address).json()
        return result


@pytest.fixture
def portone_timeout() -> float:
    """How long the desk's PortOne client waits for an answer (a test of slow answers shortens it)."""
    return 15.0


@pytest.fixture
def desk(settings: Settings, sandbox: RunningSandbox, clock: TestClock, portone_timeout: float) -> Iterator[Desk]:
    # One set of services plays the API and the workers: the same log, views, clock and gateway.
    gateway = PortOneGateway(sandbox.client(timeout=portone_timeout))
    services = Services.build(settings, clock=SharedClock(clock), hasher=PlainHasher(), payments=gateway)
    client = TestClient(create_app(services=services))
    with running_projector(settings):  # first: a registration waits (bounded) until the views have it
        register_confirmed(client, services, SUBSCRIBER, PASSWORD)
        yield Desk(client, services, clock, sandbox)
    services.close()
