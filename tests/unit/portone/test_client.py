"""The client against a fake PortOne (httpx.MockTransport): envelope, errors, token cache."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from integrations.portone import (
    AuthError,
    BillingKeyNotFoundError,
    CardDetails,
    GatewayUnavailableError,
    PaymentNotFoundError,
    PaymentStatus,
    PortOneClient,
    PortOneError,
)

NOW = datetime(2026, 11, 2, 3, 0, tzinfo=UTC)
T0 = int(NOW.timestamp())

PAYMENT = {
    "imp_uid": "imp_123456789012",
    "merchant_uid": "order-1",
    "pay_method": "card",
    "amount": 12900,
    "cancel_amount": 0,
    "currency": "KRW",
    "status": "paid",
    "started_at": T0,
    "paid_at": T0,
    "failed_at": 0,
    "cancelled_at": 0,
    "cancel_history": [],
    "unknown_future_field": "ignored",
}


def envelope(response: Any = None, code: int = 0, message: str | None = None) -> dict[str, Any]:
    return {"code": code, "message": message, "response": response}


class FakePortOne:
    """Answers getToken and routes other calls to a handler; records every request."""

    def __init__(self, handler: Callable[[httpx.Request], httpx.Response]) -> None:
        self.handler = handler
        self.requests: list[httpx.Request] = []
        self.tokens_issued = 0
        self.clock = NOW

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        if request.url.path == "/users/getToken":
            self.tokens_issued += 1
            now = int(self.clock.timestamp())
            token = {"access_token": f"token-{self.tokens_issued}", "now": now, "expired_at": now + 1800}
            return httpx.Response(200, json=envelope(token))
        return self.handler(request)

    def client(self, clock: Callable[[], datetime] = lambda: NOW) -> PortOneClient:
        return PortOneClient("https://portone.test", "key", "secret", transport=httpx.MockTransport(self), clock=clock)


def answer(status: int, body: Any) -> Callable[[httpx.Request], httpx.Response]:
    return lambda request: httpx.Response(status, json=body)


def test_a_payment_is_read_into_a_typed_model_with_aware_times() -> None:
    fake = FakePortOne(answer(200, envelope(PAYMENT)))

    payment = fake.client().get_payment("imp_123456789012")

    assert payment.status is PaymentStatus.PAID
    assert payment.amount == 12900
    assert payment.paid_at == NOW and payment.paid_at.tzinfo is not None
    assert payment.failed_at is None and payment.cancelled_at is None
    assert fake.requests[-1].headers["Authorization"] == "Bearer token-1"
    assert fake.requests[-1].url.path == "/payments/imp_123456789012"


def test_ids_are_quoted_in_paths() -> None:
    fake = FakePortOne(answer(200, envelope(PAYMENT)))

    fake.client().find_payment("order 1/2", PaymentStatus.PAID)

    assert fake.requests[-1].url.raw_path == b"/payments/find/order%201%2F2/paid"


def test_a_non_zero_code_raises_with_code_and_message() -> None:
    fake = FakePortOne(answer(200, envelope(code=1, message="already cancelled")))

    with pytest.raises(PortOneError) as raised:
        fake.client().cancel(imp_uid="imp_123456789012")

    assert (raised.value.code, raised.value.message, raised.value.status_code) == (
        1,
        "already cancelled",
        200,
    )


def test_http_404_is_payment_not_found() -> None:
    fake = FakePortOne(answer(404, envelope(code=-1, message="payment not found")))

    with pytest.raises(PaymentNotFoundError):
        fake.client().get_payment("imp_000000000000")


def test_code_minus_1_on_a_billing_key_read_is_billing_key_not_found() -> None:
    fake = FakePortOne(answer(200, envelope(code=-1, message="no billing key")))

    with pytest.raises(BillingKeyNotFoundError):
        fake.client().get_billing_key("customer-1")


def test_wrong_keys_raise_auth_error_after_one_token_request() -> None:
    requests: list[httpx.Request] = []

    def refuse(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        return httpx.Response(401, json=envelope(code=-1, message="bad keys"))

    client = PortOneClient("https://portone.test", "key", "bad", transport=httpx.MockTransport(refuse))

    with pytest.raises(AuthError):
        client.get_payment("imp_123456789012")
    assert [r.url.path for r in requests] == ["/users/getToken"]


def test_a_refused_token_is_refreshed_once_then_the_call_is_retried() -> None:
    calls = iter([httpx.Response(401, json=envelope(code=-1)), httpx.Response(200, json=envelope(PAYMENT))])
    fake = FakePortOne(lambda request: next(calls))

    payment = fake.client().get_payment("imp_123456789012")

    assert payment.imp_uid == "imp_123456789012"
    assert fake.tokens_issued == 2
    assert fake.requests[-1].headers["Authorization"] == "Bearer token-2"


def test_a_token_refused_twice_is_an_auth_error() -> None:
    fake = FakePortOne(answer(401, envelope(code=-1)))

    with pytest.raises(AuthError):
        fake.client().get_payment("imp_123456789012")
    assert fake.tokens_issued == 2


def test_the_token_is_cached_until_a_minute_before_it_expires() -> None:
    now = [NOW]
    fake = FakePortOne(answer(200, envelope(PAYMENT)))
    client = fake.client(clock=lambda: now[0])

    client.get_payment("imp_1")
    now[0] = NOW + timedelta(minutes=28, seconds=59)
    client.get_payment("imp_1")
    assert fake.tokens_issued == 1

    now[0] = NOW + timedelta(minutes=29, seconds=1)
    client.get_payment("imp_1")
    assert fake.tokens_issued == 2


def test_an_unreachable_gateway_is_gateway_unavailable() -> None:
    def fail(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectTimeout("timed out", request=request)

    client = PortOneClient("https://portone.test", "key", "secret", transport=httpx.MockTransport(fail))

    with pytest.raises(GatewayUnavailableError) as raised:
        client.get_token()
    assert raised.value.__cause__ is None and raised.value.status_code is None


def test_a_reply_without_an_envelope_is_gateway_unavailable() -> None:
    fake = FakePortOne(lambda request: httpx.Response(502, text="<html>Bad gateway</html>"))

    with pytest.raises(GatewayUnavailableError) as raised:
        fake.client().get_payment("imp_1")
    assert raised.value.status_code == 502


def test_a_malformed_payment_is_refused_not_half_read() -> None:
    fake = FakePortOne(answer(200, envelope({**PAYMENT, "amount": 10.5})))

    with pytest.raises(PortOneError, match="unexpected Payment"):
        fake.client().get_payment("imp_1")


def test_card_details_go_to_the_gateway_and_nowhere_else(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    customer = {
        "customer_uid": "customer-1",
        "card_number": "941012******9012",
        "inserted": T0,
        "updated": T0,
    }
    fake = FakePortOne(answer(200, envelope(customer)))
    card = CardDetails(number="9410-1234-5678-9012", expiry="2030-12", birth="900101", pwd_2digit="12")

    issued = fake.client().issue_billing_key("customer-1", card, pg="kcp_billing")

    sent = json.loads(fake.requests[-1].content)
    assert sent == {
        "pg": "kcp_billing",
        "card_number": "9410-1234-5678-9012",
        "expiry": "2030-12",
        "birth": "900101",
        "pwd_2digit": "12",
    }
    assert issued.card_number == "941012******9012"
    assert repr(card) == "CardDetails(number='****9012')" and str(card) == repr(card)
    for secret in ("9410-1234-5678-9012", "2030-12", "900101"):
        assert secret not in caplog.text


def test_charge_again_sends_only_the_given_fields() -> None:
    fake = FakePortOne(answer(200, envelope({**PAYMENT, "channel": "api"})))

    fake.client().charge_again(customer_uid="customer-1", merchant_uid="renewal-1", amount=9900, name="Renewal")

    assert json.loads(fake.requests[-1].content) == {
        "customer_uid": "customer-1",
        "merchant_uid": "renewal-1",
        "amount": 9900,
        "name": "Renewal",
    }


@pytest.mark.parametrize("amount", [-1, 10.5, True])
def test_amounts_are_non_negative_integers(amount: Any) -> None:
    fake = FakePortOne(answer(200, envelope({"merchant_uid": "order-1", "amount": 1})))

    with pytest.raises(ValueError, match="integers"):
        fake.client().prepare("order-1", amount)
    assert fake.requests == []


def test_a_cancel_names_the_payment() -> None:
    fake = FakePortOne(answer(200, envelope(PAYMENT)))

    with pytest.raises(ValueError, match="imp_uid or merchant_uid"):
        fake.client().cancel(amount=100)
