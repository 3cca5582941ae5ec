"""Money whose answer the gateway lost, over HTTP on both stores against the PortOne sandbox's fault switches: a
refund the sandbox made but never answered, and a subscription's first charge made while both the charge's answer
and its read-back were lost. Each stays pending under its merchantUid (the log says so), the pass that settles
pending payments reads the gateway and records what it did, and a customer who tries again is never charged twice."""

from __future__ import annotations

from datetime import timedelta

import pytest

from application.pending_money import settle_pending_money
from domain.accounts.auth import find_account_id
from domain.licences.licence import LicenceState, UserLicence
from domain.payments.payment import Payment, PaymentState
from domain.subscriptions.charging import first_subscription_id
from domain.subscriptions.subscription import order_id
from events.payments import FirstChargeOrdered, PaymentRefunded, RefundReserved
from tests.integration.purchases.desk import GOOD_CARD, SUBSCRIBER, Desk
from tests.integration.purchases.test_back_office_support import buy

pytestmark = pytest.mark.integration

MONTHLY = 111


def _settling_pass(desk: Desk) -> list[str]:
    """Beat's minute: the pass over everything pending, once the views have the latest writes."""
    desk.views_caught_up()
    services = desk.services
    settled = settle_pending_money(services.store, services.views, services.clock, services.payments)
    desk.views_caught_up()
    return [f"{each.pending}: {each.outcome}" for each in settled]


def _topics(desk: Desk, merchant_uid: str) -> list[str]:
    return [
        type(event).__name__ for event in desk.services.store.repository.event_store.get(Payment.id_for(merchant_uid))
    ]


def test_a_money_back_refund_whose_answer_is_lost_stays_pending_until_the_pass_reads_the_gateway(desk: Desk) -> None:
    account_id = find_account_id(desk.services.store, SUBSCRIBER)
    assert account_id is not None
    merchant_uid, licence_id, _ = buy(desk, account_id)
    desk.sandbox.plan_faults(path_prefix="/payments/cancel", lose_next=1)

    asked = desk.call("POST", f"/payments/licenses/{merchant_uid}/money-back")
    assert (asked.status_code, asked.json()["state"]) == (200, "refunding"), asked.text
    desk.sandbox.plan_faults()
    payment: Payment = desk.services.store.repository.get(Payment.id_for(merchant_uid))
    assert payment.pending_refund is not None and payment.cancel_amount == 0, "reserved, not recorded"
    assert desk.sandbox.charges_for(merchant_uid) == ["cancelled"], "the sandbox made it all the same"
    again = desk.call("POST", f"/payments/licenses/{merchant_uid}/money-back")
    assert again.json()["state"] == "refunding", "asking again answers the request as it stands"
    assert _settling_pass(desk) == [], "the pass leaves a fresh refund to its own caller for a minute"

    desk.clock.advance(timedelta(minutes=2))
    assert _settling_pass(desk) == ["refund: refunded 4999"]
    assert _topics(desk, merchant_uid)[-2:] == ["RefundReserved", "PaymentRefunded"]
    [refunded] = [
        event
        for event in desk.services.store.repository.event_store.get(Payment.id_for(merchant_uid))
        if isinstance(event, PaymentRefunded)
    ]
    [reserved] = [
        event
        for event in desk.services.store.repository.event_store.get(Payment.id_for(merchant_uid))
        if isinstance(event, RefundReserved)
    ]
    assert (refunded.source, refunded.reservation_id, refunded.cancel_amount) == (
        "store",
        reserved.reservation_id,
        4999,
    )
    licence: UserLicence = desk.services.store.repository.get(licence_id)
    assert licence.state is LicenceState.REVOKED
    assert desk.call("POST", f"/payments/licenses/{merchant_uid}/money-back").json()["state"] == "refunded"
    assert _settling_pass(desk) == [], "settled once"


def test_a_first_charge_whose_answer_and_read_back_are_lost_is_found_by_the_customers_retry(desk: Desk) -> None:
    key = desk.call("PUT", "/billingkeys", json=GOOD_CARD).json()  # the gateway's token is fetched here
    account_id = find_account_id(desk.services.store, SUBSCRIBER)
    assert account_id is not None
    subscription_id = first_subscription_id(desk.services.store, account_id, key["customerUid"], MONTHLY)
    merchant_uid = order_id(subscription_id, 1, 1)

    desk.sandbox.plan_faults(lose_next=2)  # the charge is made; its answer and the read-back are lost
    lost = desk.call("POST", "/payments/licenses/subscribe/new", json={"licenseId": MONTHLY})
    assert (lost.status_code, lost.json()["errorCode"]) == (503, -1002), lost.text
    desk.sandbox.plan_faults()
    assert desk.sandbox.charges_for(merchant_uid) == ["paid"]
    assert _topics(desk, merchant_uid) == ["PaymentOrdered", "FirstChargeOrdered"], "pending under its merchantUid"

    retried = desk.call("POST", "/payments/licenses/subscribe/new", json={"licenseId": MONTHLY})
    assert retried.status_code == 200, retried.text
    assert desk.sandbox.charges_for(merchant_uid) == ["paid"], "the retry found the charge: nothing charged again"
    assert str(retried.json()["subscriptionId"]) == str(subscription_id)
    payment: Payment = desk.services.store.repository.get(Payment.id_for(merchant_uid))
    assert payment.state is PaymentState.PAID
    history = desk.history()
    assert [row["merchantUid"] for row in history if row["purchaseType"] == "subscription"] == [merchant_uid]
    desk.clock.advance(timedelta(minutes=2))
    assert _settling_pass(desk) == [], "nothing was left pending"


def test_a_first_charge_nobody_retries_is_settled_by_the_pass_and_the_subscription_starts(desk: Desk) -> None:
    key = desk.call("PUT", "/billingkeys", json=GOOD_CARD).json()
    account_id = find_account_id(desk.services.store, SUBSCRIBER)
    assert account_id is not None
    merchant_uid = order_id(first_subscription_id(desk.services.store, account_id, key["customerUid"], MONTHLY), 1, 1)
    desk.sandbox.plan_faults(lose_next=2)
    assert desk.call("POST", "/payments/licenses/subscribe/new", json={"licenseId": MONTHLY}).status_code == 503
    desk.sandbox.plan_faults()

    desk.clock.advance(timedelta(minutes=2))
    assert _settling_pass(desk) == ["first-charge: paid"]
    assert _topics(desk, merchant_uid)[:3] == ["PaymentOrdered", "FirstChargeOrdered", "PaymentSucceeded"]
    [licence] = desk.call("GET", "/licenses/mine").json()
    assert (licence["newLicenseId"], licence["state"], licence["isScheduled"]) == (MONTHLY, "active", True)
    assert desk.sandbox.charges_for(merchant_uid) == ["paid"]


def test_a_first_charge_the_gateway_never_made_is_recorded_failed_and_the_customer_may_try_again(desk: Desk) -> None:
    key = desk.call("PUT", "/billingkeys", json=GOOD_CARD).json()
    account_id = find_account_id(desk.services.store, SUBSCRIBER)
    assert account_id is not None
    merchant_uid = order_id(first_subscription_id(desk.services.store, account_id, key["customerUid"], MONTHLY), 1, 1)
    desk.sandbox.plan_faults(fail_next=2)  # nothing is made: the charge and the read-back both fail
    assert desk.call("POST", "/payments/licenses/subscribe/new", json={"licenseId": MONTHLY}).status_code == 503
    desk.sandbox.plan_faults()
    assert desk.sandbox.charges_for(merchant_uid) == []

    desk.clock.advance(timedelta(minutes=2))
    assert _settling_pass(desk) == ["first-charge: failed"]
    assert desk.call("POST", "/payments/licenses/subscribe/new", json={"licenseId": MONTHLY}).status_code == 200
    charged = [
        event
        for event in desk.services.store.recorder.select_notifications(start=1, limit=10_000)
        if event.topic == FirstChargeOrdered.TOPIC
    ]
    assert len(charged) == 2, "a new order after the one the gateway never made"


def test_the_webhook_of_a_pending_first_charge_starts_its_subscription_never_a_one_off_licence(desk: Desk) -> None:
    key = desk.call("PUT", "/billingkeys", json=GOOD_CARD).json()
    account_id = find_account_id(desk.services.store, SUBSCRIBER)
    assert account_id is not None
    merchant_uid = order_id(first_subscription_id(desk.services.store, account_id, key["customerUid"], MONTHLY), 1, 1)
    desk.sandbox.plan_faults(lose_next=2)
    assert desk.call("POST", "/payments/licenses/subscribe/new", json={"licenseId": MONTHLY}).status_code == 503
    desk.sandbox.plan_faults()
    imp_uid = desk.services.payments.find(merchant_uid)
    assert imp_uid is not None

    notice = {"imp_uid": imp_uid.imp_uid, "merchant_uid": merchant_uid, "status": "paid"}
    assert desk.guest_call("POST", "/payments/webhook", json=notice).json() == {"ok": True}
    desk.views_caught_up()
    [licence] = desk.call("GET", "/licenses/mine").json()
    assert (licence["isScheduled"], licence["scheduledPayment"]["status"]) == (True, "active")
    assert desk.guest_call("POST", "/payments/webhook", json=notice).json() == {"ok": True}, "a repeat changes nothing"
    assert desk.call("POST", "/payments/licenses/subscribe/new", json={"licenseId": MONTHLY}).status_code == 200
    assert len(desk.call("GET", "/licenses/mine").json()) == 2, "a later subscription is a new one, charged anew"
