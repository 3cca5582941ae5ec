"""Events written by earlier code still load.

``recorded/log-2026-11-23.jsonl`` is a log written by the code of 2026-11-23 (before payments
recorded their discount factors and before subscription events said when they renew or run out):
every topic of that day, from registrations to refunds, re-subscriptions and account deletion.
Replayed into today's code, every aggregate loads, the upcasters fill the new fields, and the
views rebuild from it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from uuid import UUID

import pytest
from eventsourcing.persistence import StoredEvent

from domain.payments.payment import Payment
from domain.pricing.quotes import DiscountFactor, DiscountKind
from domain.store import Storefront
from domain.subscriptions.subscription import Subscription
from eventlog.database import SQLiteViewDatabase
from events.payments import PaymentOrdered
from events.subscriptions import AutoRenewalCancelled, SubscriptionStarted
from projections.catalogue import all_views
from projections.payments import payments_of
from projections.runner import Projector

RECORDED = Path(__file__).with_name("recorded") / "log-2026-11-23.jsonl"


def _stored_events() -> list[StoredEvent]:
    events = []
    for line in RECORDED.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        events.append(
            StoredEvent(
                originator_id=UUID(record["originator_id"]),
                originator_version=record["originator_version"],
                topic=record["topic"],
                state=json.dumps(record["state"]).encode(),
            )
        )
    return events


@pytest.fixture
def replayed() -> Iterator[Storefront]:
    store = Storefront({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": ":memory:"})
    store.recorder.insert_events(_stored_events())
    yield store
    store.close()


def test_every_aggregate_of_the_recorded_log_loads(replayed: Storefront) -> None:
    originators = {event.originator_id for event in _stored_events()}
    for originator_id in originators:
        aggregate = replayed.repository.get(originator_id)
        assert aggregate.version == max(
            event.originator_version for event in _stored_events() if event.originator_id == originator_id
        )


def test_old_orders_read_back_their_discounts_from_the_amounts(replayed: Storefront) -> None:
    orders = [
        replayed.mapper.to_domain_event(notification)
        for notification in replayed.recorder.select_notifications(start=1, limit=1000, topics=["payment.Ordered"])
    ]
    assert all(isinstance(order, PaymentOrdered) and order.user_licence_id is None for order in orders)
    annual = next(order for order in orders if order.licence_id == 121 and order.purchase_type == "new")
    assert (annual.original_amount, annual.amount) == (34800, 24360)
    assert annual.discount_factors == [{"type": "base", "factor": Decimal("0.30")}]
    payment: Payment = replayed.repository.get(annual.originator_id)
    assert payment.discount_factors == (DiscountFactor(DiscountKind.BASE, Decimal("0.3")),)
    lifetime = next(order for order in orders if order.licence_id == 131)
    assert lifetime.discount_factors == []


def test_old_subscriptions_renew_at_the_amount_they_recorded(replayed: Storefront) -> None:
    started = [
        replayed.mapper.to_domain_event(notification)
        for notification in replayed.recorder.select_notifications(start=1, limit=1000, topics=["subscription.Started"])
    ]
    assert started and all(isinstance(event, SubscriptionStarted) for event in started)
    for event in started:
        subscription: Subscription = replayed.repository.get(event.originator_id)
        quote = subscription.renewal_quote
        assert (quote.list_price, quote.amount, quote.factors) == (event.amount, event.amount, ())


def test_old_cancellations_leave_the_end_to_the_paid_period(replayed: Storefront, tmp_path: Path) -> None:
    cancelled = [
        replayed.mapper.to_domain_event(notification)
        for notification in replayed.recorder.select_notifications(
            start=1, limit=1000, topics=["subscription.AutoRenewalCancelled"]
        )
    ]
    assert cancelled and all(isinstance(event, AutoRenewalCancelled) for event in cancelled)
    assert all(event.runs_out_at is None for event in cancelled)


def test_the_views_rebuild_from_the_recorded_log(replayed: Storefront, tmp_path: Path) -> None:
    views = SQLiteViewDatabase(str(tmp_path / "views.sqlite3"))
    try:
        projector = Projector(replayed, views, all_views(), poll_interval=0.01)
        projector.setup()
        projector.catch_up()
        annual = next(
            order
            for order in _stored_events()
            if order.topic == "payment.Ordered" and json.loads(order.state)["licence_id"] == 121
        )
        account_id = UUID(json.loads(annual.state)["account_id"]["_data_"])
        history = {row["merchant_uid"]: row for row in payments_of(views, account_id)}
        merchant_uid = json.loads(annual.state)["merchant_uid"]
        assert history[merchant_uid]["discount_factors"] == [{"type": "base", "factor": "0.30"}]
        with views.read() as cursor:
            cursor.execute("SELECT status, paid_until, next_charge_at, due_at FROM subscriptions_view")
            rows = cursor.fetchall()
        assert {row["status"] for row in rows} == {"active", "ended"}
        for row in rows:
            expected = row["paid_until"] if row["status"] == "active" else None
            assert (row["next_charge_at"], row["due_at"]) == (expected, expected)
    finally:
        views.close()
