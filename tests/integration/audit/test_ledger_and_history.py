"""Finance's ledger equals the payments in the log, and operators read a licence or payment as it was."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.middleware import API_PREFIX
from api.services import Services as ApiServices
from bootstrap import Services
from config.settings import Settings
from domain.business_time import business_day
from domain.catalogue.licences import Catalogue
from domain.errors import ErrorCode
from domain.store import Storefront
from eventlog.tracking import wait_for_views
from eventlog.transparency import read_log
from events.payments import PaymentOrdered, PaymentRefunded, PaymentSucceeded
from integrations.portone.gateway import PortOneGateway
from projections.ledger import ledger_entries, ledger_summary
from tests.integration.audit.purchases import buy, refund
from tests.integration.portone.harness import RunningSandbox, SharedClock, TestClock
from tests.support import running_projector
from workers import operator

pytestmark = pytest.mark.integration


def money_in_the_log(store: Storefront) -> Counter[tuple[str, str, str, str, str]]:
    """Revenue and refunds summed straight from the stored events: (kind, day, currency, product, method) -> amount."""
    ordered: dict[Any, PaymentOrdered] = {}
    methods: dict[Any, str] = {}
    sums: Counter[tuple[str, str, str, str, str]] = Counter()
    for notification in read_log(store.recorder):
        event = store.mapper.to_domain_event(notification)
        if isinstance(event, PaymentOrdered):
            ordered[event.originator_id] = event
        elif isinstance(event, PaymentSucceeded):
            order = ordered[event.originator_id]
            methods[event.originator_id] = event.pay_method
            day = business_day(event.paid_at).isoformat()
            sums["revenue", day, order.currency.value, order.product_code, event.pay_method] += order.amount
        elif isinstance(event, PaymentRefunded):
            order = ordered[event.originator_id]
            day = business_day(event.refunded_at).isoformat()
            method = methods[event.originator_id]
            sums["refund", day, order.currency.value, order.product_code, method] += event.amount
    return sums


def test_the_ledger_sums_to_exactly_the_payments_in_the_log_both_ways(
    settings: Settings,
    store: Storefront,
    sandbox: RunningSandbox,
    gateway: PortOneGateway,
    domain_clock: SharedClock,
    clock: TestClock,
    catalogue: Catalogue,
    capsys: pytest.CaptureFixture[str],
) -> None:
    dollars = buy(store, domain_clock, gateway, sandbox, catalogue, email="usd@example.com")
    clock.advance(timedelta(hours=20))
    won = buy(
        store, domain_clock, gateway, sandbox, catalogue, licence_id=121, country_code="KR", email="krw@example.com"
    )
    refund(store, domain_clock, clock, gateway, dollars, 1000)
    refund(store, domain_clock, clock, gateway, won, won.amount)

    with running_projector(settings) as views:
        assert wait_for_views(views, store.name, ["ledger"], store.max_notification_id(), timeout=20)
        summary = ledger_summary(views)
        entries = ledger_entries(views)

    from_ledger: Counter[tuple[str, str, str, str, str]] = Counter()
    for row in summary:
        key = (row["day"], row["currency"], row["product_code"], row["pay_method"])
        from_ledger["revenue", *key] += row["revenue"]
        if row["refunds"]:
            from_ledger["refund", *key] += row["refunds"]
        assert row["net"] == row["revenue"] - row["refunds"]
    assert from_ledger == money_in_the_log(store)
    assert sum(row["revenue"] for row in summary if row["currency"] == "USD") == dollars.amount == 4999
    assert sum(row["refunds"] for row in summary if row["currency"] == "KRW") == won.amount

    by_payment: Counter[tuple[str, str]] = Counter()
    for entry in entries:
        by_payment[entry["merchant_uid"], entry["kind"]] += entry["amount"]
    assert by_payment == Counter(
        {
            (dollars.merchant_uid, "revenue"): 4999,
            (dollars.merchant_uid, "refund"): 1000,
            (won.merchant_uid, "revenue"): won.amount,
            (won.merchant_uid, "refund"): won.amount,
        }
    )

    services = Services.build(settings, clock=domain_clock, payments=gateway)
    try:
        assert operator.run(operator.parse_args(["ledger"]), services) == 0
    finally:
        services.close()
    printed = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [{k: str(v) for k, v in row.items()} for row in summary] == printed


def test_an_operator_reads_a_licence_and_its_payment_before_and_after_a_refund(
    settings: Settings,
    store: Storefront,
    sandbox: RunningSandbox,
    gateway: PortOneGateway,
    domain_clock: SharedClock,
    clock: TestClock,
    catalogue: Catalogue,
    capsys: pytest.CaptureFixture[str],
) -> None:
    before_purchase = domain_clock.now() - timedelta(minutes=1)
    bought = buy(store, domain_clock, gateway, sandbox, catalogue)
    after_purchase = domain_clock.now() + timedelta(hours=1)
    refund(store, domain_clock, clock, gateway, bought, 1000)
    after_refund = domain_clock.now() + timedelta(hours=1)

    services = Services.build(settings, clock=domain_clock, payments=gateway)

    def read(kind: str, key: str, at: Any) -> dict[str, Any] | None:
        code = operator.run(operator.parse_args(["as-of", kind, key, at.isoformat()]), services)
        printed = capsys.readouterr()
        return json.loads(printed.out)["state"] if code == 0 else None

    try:
        licence = str(bought.user_licence_id)
        assert read("licence", licence, before_purchase) is None
        bought_licence = read("licence", licence, after_purchase)
        refunded_licence = read("licence", licence, after_refund)
        assert bought_licence is not None and refunded_licence is not None
        assert bought_licence["state"] == refunded_licence["state"] == "active"
        assert refunded_licence["expires_at"] is not None
        assert bought_licence["expires_at"] != refunded_licence["expires_at"]

        paid = read("payment", bought.merchant_uid, after_purchase)
        refunded = read("payment", bought.merchant_uid, after_refund)
        assert paid is not None and refunded is not None
        assert (paid["state"], paid["cancel_amount"]) == ("paid", 0)
        assert refunded["cancel_amount"] == 1000
    finally:
        services.close()


def test_the_operator_endpoint_answers_the_same_behind_the_admin_token_only(
    settings: Settings,
    store: Storefront,
    sandbox: RunningSandbox,
    gateway: PortOneGateway,
    domain_clock: SharedClock,
    clock: TestClock,
    catalogue: Catalogue,
) -> None:
    bought = buy(store, domain_clock, gateway, sandbox, catalogue)
    after_purchase = domain_clock.now() + timedelta(hours=1)
    refund(store, domain_clock, clock, gateway, bought, 1000)
    with_admin = settings.model_copy(update={"test_admin_token": "finance-admin-token"})
    services = ApiServices.build(with_admin, clock=domain_clock, payments=gateway)
    path = f"{API_PREFIX}/operator/history/payment/{bought.merchant_uid}"
    try:
        with TestClient(create_app(services=services)) as client:
            at = {"at": after_purchase.isoformat()}
            assert client.get(path, params=at).status_code == 401
            assert client.get(path, params=at, headers={"x-admin-token": "guess"}).status_code == 401
            answer = client.get(path, params=at, headers={"x-admin-token": "finance-admin-token"})
            assert answer.status_code == 200, answer.text
            body = answer.json()
            assert (body["kind"], body["version"]) == ("payment", 3)
            assert (body["state"]["state"], body["state"]["cancel_amount"]) == ("paid", 0)

            now = {"at": domain_clock.now().isoformat()}
            assert (
                client.get(path, params=now, headers={"x-admin-token": "finance-admin-token"}).json()["state"][
                    "cancel_amount"
                ]
                == 1000
            )
            before = {"at": "2020-01-01T00:00:00+09:00"}
            missing = client.get(path, params=before, headers={"x-admin-token": "finance-admin-token"})
            assert (missing.status_code, missing.json()["errorCode"]) == (404, ErrorCode.NOT_FOUND.value)
    finally:
        services.close()
