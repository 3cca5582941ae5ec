"""Schemathesis over every operation of the live app, on each store: OpenAPI tells the truth.

A confirmed customer with a subscription, a device and a billing key (so that lists and details
have something to show) is logged in; the PortOne sandbox runs over HTTP. Each operation gets
generated requests, valid and invalid, then valid ones naming the customer's own resources.
Every answer must be documented: no server error, no undocumented status, bodies that match
their schema and the documented content type. The app carries the test harness's operator
credential (TEST_ADMIN_TOKEN), so the test harness's, the admin API's and the operator's routes are
in the document and are called with it. Left out: the gateway webhook (not in the document; its
bodies are fuzzed in tests/security/test_no_server_errors.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import hypothesis
import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase, given
from hypothesis.errors import Unsatisfiable
from hypothesis.strategies import SearchStrategy
from schemathesis import Case, GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import Failure, FailureGroup
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from api.app import create_app
from api.services import Services
from config.settings import Settings
from domain.accounts.outgoing import confirmation_link
from domain.links import CONFIRMATION_PATH, SiteLinks
from eventlog.tracking import wait_for_views
from integrations.portone.gateway import PortOneGateway
from projections.catalogue import all_views
from tests.fakes import PlainHasher
from tests.integration.portone.conftest import clock, sandbox, start_sandbox, webhook_receiver
from tests.integration.portone.harness import RunningSandbox, SharedClock, TestClock
from tests.support import running_projector

__all__ = ["clock", "sandbox", "start_sandbox", "webhook_receiver"]

pytestmark = pytest.mark.integration

V1 = "/web/unicornpro/v1"
EMAIL = "conformance@example.com"
PASSWORD = "abcd1234"
OPERATOR_TOKEN = "conformance-operator"
CARD = {"cardNumber": "4111111111111111", "expiryYear": 2029, "expiryMonth": 12, "password": "12", "birth": "900101"}
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
# Examples per operation: generated valid requests, invalid ones, and valid ones naming the customer's resources.
# PostgreSQL, production's store, gets the most; the embedded store half as many (an answer's shape does not depend
# on the store, and tests/security/test_no_server_errors.py fuzzes every operation's bodies on both). With some 200
# operations these counts are most of CI's half hour budget for this test; schemathesis' own runs go further.
EXAMPLES = {
    "postgres": {"valid": 12, "invalid": 6, "own": 3},
    "sqlite": {"valid": 6, "invalid": 3, "own": 2},
}
# Deleting the account ends the customer's session, and so does a logout with the customer's token: they run last.
LAST = ("PUT /web/unicornpro/v1/accounts/delete", "POST /web/unicornpro/v1/auth/logout")


@dataclass
class Customer:
    """The logged-in customer (headers carry the operator credential too) and the ids of what they hold."""

    headers: dict[str, str]
    own: dict[str, str]


@dataclass
class Findings:
    """Distinct failures per operation, each with a request that reproduces it."""

    found: dict[str, list[str]] = field(default_factory=dict)

    def add(self, label: str, error: Failure | FailureGroup, case: Case) -> None:
        failures = error.exceptions if isinstance(error, FailureGroup) else (error,)
        for failure in failures:
            text = f"{failure.title}: {failure.message}"
            known = self.found.setdefault(label, [])
            if not any(entry.startswith(text) for entry in known):
                known.append(f"{text}\n    {case.as_curl_command()}")

    def report(self) -> str:
        return "\n\n".join(f"{label}\n  " + "\n  ".join(texts) for label, texts in self.found.items())


@pytest.fixture
def client(settings: Settings, sandbox: RunningSandbox, clock: TestClock) -> Iterator[TestClient]:
    services = Services.build(
        settings.model_copy(update={"test_admin_token": OPERATOR_TOKEN}),
        clock=SharedClock(clock),
        hasher=PlainHasher(),
        payments=PortOneGateway(sandbox.client()),
    )
    with running_projector(settings):
        yield TestClient(create_app(services=services))
    services.close()


def a_customer(client: TestClient) -> Customer:
    """Register, confirm and log in through the API; then subscribe with a card and activate a device."""
    services: Services = client.app.state.services  # type: ignore[attr-defined]
    registered = client.post(f"{V1}/accounts", json={"email": EMAIL, "pw": PASSWORD, "language": "en"})
    assert registered.status_code == 200, registered.text
    account = services.store.repository.get(UUID(registered.json()["userId"]))
    link = confirmation_link(
        services.settings.auth_secret, SiteLinks(services.settings.base_url), account, services.clock.now()
    )
    confirmed = client.get(link[link.index(CONFIRMATION_PATH) :], follow_redirects=False)
    assert "errorCode" not in confirmed.headers["location"], confirmed.headers["location"]
    login = client.post(f"{V1}/auth/login", json={"email": EMAIL, "pw": PASSWORD})
    assert login.status_code == 200, login.text
    headers = {"Authorization": f"Bearer {login.json()['accessToken']}"}
    operator = {**headers, "X-Admin-Token": OPERATOR_TOKEN}

    def call(method: str, path: str, **kwargs: Any) -> Any:
        answer = client.request(method, f"{V1}{path}", headers=headers, **kwargs)
        assert answer.status_code == 200, answer.text
        return answer.json()

    key = call("PUT", "/billingkeys", json=CARD)
    subscribed = call("POST", "/payments/licenses/subscribe/new", json={"licenseId": 111, "countryCode": "KR"})
    device = {"deviceId": "phone-1", "deviceName": "Phone", "platform": "android"}
    call("POST", "/licenses/activate", json={"licenseKey": subscribed["licenseKey"], **device})
    merchant_uid = call("GET", "/payments/licenses")[0]["merchantUid"]
    own = {
        "account_id": registered.json()["userId"],
        "user_license_id": subscribed["userLicenseId"],
        "license_key": subscribed["licenseKey"],
        "device_id": device["deviceId"],
        "merchant_uid": merchant_uid,
        "billingkey_id": key["billingkeyId"],
    }
    return Customer(operator, own)


def explore(strategy: SearchStrategy[Case], examples: int, call: Callable[[Case], None]) -> None:
    """Run ``call`` on up to ``examples`` cases, the same ones every run."""

    @given(case=strategy)
    @hypothesis.settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    def run(case: Case) -> None:
        call(case)

    with suppress(Unsatisfiable):  # e.g. no invalid request exists for an operation without inputs
        run()


def test_every_operation_answers_only_what_its_openapi_document_says(client: TestClient, store_kind: str) -> None:
    examples = EXAMPLES[store_kind]
    customer = a_customer(client)
    schema = schemathesis.openapi.from_asgi(f"{V1}/openapi.json", client.app)
    operations = sorted(
        (result.ok() for result in schema.get_all_operations()),
        key=lambda op: LAST.index(op.label) + 1 if op.label in LAST else 0,
    )
    findings = Findings()

    for operation in operations:

        def call(case: Case, label: str = operation.label) -> None:
            try:
                case.call_and_validate(headers=customer.headers, checks=CHECKS)
            except (Failure, FailureGroup) as error:
                findings.add(label, error, case)

        explore(operation.as_strategy(GenerationMode.POSITIVE), examples["valid"], call)
        explore(operation.as_strategy(GenerationMode.NEGATIVE), examples["invalid"], call)
        named = {p.name: customer.own[p.name] for p in operation.path_parameters if p.name in customer.own}
        if named:
            explore(operation.as_strategy(path_parameters=named), examples["own"], call)

    assert not findings.found, findings.report()
    services: Services = client.app.state.services  # type: ignore[attr-defined]
    log_head = services.store.max_notification_id()
    views = [view.name for view in all_views()]
    assert wait_for_views(services.views, services.store.name, views, log_head, 10), "a request stopped a view"
