"""Billing keys and recurring charges: issue, read, revoke, charge once per merchant_uid."""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor

import pytest

from integrations.portone import (
    BillingKeyNotFoundError,
    CardDetails,
    PaymentStatus,
    PortOneClient,
    PortOneError,
)
from tests.integration.portone.harness import START, RunningSandbox, WebhookReceiver

pytestmark = pytest.mark.integration

CARD = CardDetails(number="9410-1234-5678-9012", expiry="2030-12", birth="900101", pwd_2digit="12")
BROKE_CARD = CardDetails(number="4111-2222-3333-0003", expiry="2031-01", birth="900101", pwd_2digit="34")


def test_a_billing_key_is_issued_read_and_revoked(portone: PortOneClient) -> None:
    issued = portone.issue_billing_key("customer-1", CARD, pg="kcp_billing", customer_email="a@example.com")

    assert issued.customer_uid == "customer-1"
    assert issued.pg_provider == "kcp_billing"
    assert issued.card_number == "941012******9012"
    assert issued.card_name
    assert issued.inserted == START and issued.updated == START
    assert portone.get_billing_key("customer-1") == issued

    revoked = portone.delete_billing_key("customer-1")

    assert revoked.customer_uid == "customer-1"
    with pytest.raises(BillingKeyNotFoundError) as raised:
        portone.get_billing_key("customer-1")
    assert (raised.value.status_code, raised.value.code) == (200, -1)


def test_a_declined_card_gets_no_billing_key(portone: PortOneClient) -> None:
    declined = CardDetails(number="4111-1111-1111-0002", expiry="2030-12", birth="900101", pwd_2digit="12")

    with pytest.raises(PortOneError) as raised:
        portone.issue_billing_key("customer-2", declined, pg="kcp_billing")

    assert (raised.value.status_code, raised.value.code) == (200, -1)
    assert raised.value.message == "card declined"
    with pytest.raises(BillingKeyNotFoundError):
        portone.get_billing_key("customer-2")


@pytest.mark.parametrize(
    "card",
    [
        pytest.param(CardDetails("4111-1111-1111", "2030-12", "900101"), id="too-short"),
        pytest.param(CardDetails("4111-1111-1111-1111", "2026-13", "900101"), id="no-such-month"),
        pytest.param(CardDetails("4111-1111-1111-1111", "2026-10", "900101"), id="expired"),
        pytest.param(CardDetails("4111-1111-1111-1111", "2030-12", "9001"), id="bad-birth"),
    ],
)
def test_invalid_card_details_are_a_card_failure(portone: PortOneClient, card: CardDetails) -> None:
    with pytest.raises(PortOneError) as raised:
        portone.issue_billing_key("customer-3", card, pg="nice")

    assert raised.value.code == -1


def test_no_card_detail_reaches_the_sandbox_store_or_the_logs(
    sandbox: RunningSandbox, portone: PortOneClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    portone.issue_billing_key("customer-4", CARD, pg="kcp_billing")
    sandbox.checkout(merchant_uid="order-1", amount=1000, card_number="5555-6666-7777-8888", customer_uid="customer-5")
    sandbox.stop()  # everything flushed to the file

    stored = sandbox.db_path.read_bytes()
    for secret in (b"9410123456789012", b"9410-1234-5678-9012", b"5555666677778888", b"2030-12", b"900101"):
        assert secret not in stored
    assert b"941012******9012" in stored
    logged = caplog.text + repr(CARD)
    for text in ("9410123456789012", "9410-1234-5678-9012", "2030-12", "900101"):
        assert text not in logged


def test_a_recurring_charge_is_paid_once_per_merchant_uid(
    portone: PortOneClient, webhook_receiver: WebhookReceiver
) -> None:
    portone.issue_billing_key("customer-6", CARD, pg="kcp_billing")

    first = portone.charge_again(customer_uid="customer-6", merchant_uid="renewal-6-1", amount=9_900, name="Renewal")
    repeat = portone.charge_again(customer_uid="customer-6", merchant_uid="renewal-6-1", amount=9_900, name="Renewal")

    assert first.status is PaymentStatus.PAID
    assert first.channel == "api" and first.customer_uid == "customer-6"
    assert first.customer_uid_usage == "payment"
    assert first.card_number == "941012******9012"
    assert repeat == first
    webhook_receiver.wait_for(imp_uid=first.imp_uid, status="paid")
    assert len(webhook_receiver.matching(merchant_uid="renewal-6-1")) == 1


def test_concurrent_repeats_of_a_charge_still_charge_once(sandbox: RunningSandbox, portone: PortOneClient) -> None:
    portone.issue_billing_key("customer-7", CARD, pg="kcp_billing")

    def charge(_: int) -> str:
        with sandbox.client() as client:
            payment = client.charge_again(
                customer_uid="customer-7", merchant_uid="renewal-7-1", amount=9_900, name="Renewal"
            )
        return payment.imp_uid

    with ThreadPoolExecutor(max_workers=8) as pool:
        imp_uids = set(pool.map(charge, range(8)))

    assert len(imp_uids) == 1


def test_a_card_ending_0003_fails_recurring_charges_for_insufficient_funds(
    portone: PortOneClient, webhook_receiver: WebhookReceiver
) -> None:
    issued = portone.issue_billing_key("customer-8", BROKE_CARD, pg="kcp_billing")
    assert issued.card_number and issued.card_number.endswith("0003")

    charge = portone.charge_again(customer_uid="customer-8", merchant_uid="renewal-8-1", amount=9_900, name="Renewal")

    assert charge.status is PaymentStatus.FAILED  # code 0: the gateway was reached, the charge failed
    assert charge.fail_reason == "insufficient funds"
    assert charge.failed_at == START and charge.paid_at is None
    webhook_receiver.wait_for(imp_uid=charge.imp_uid, status="failed")


def test_charging_an_unknown_billing_key_is_code_minus_1(portone: PortOneClient) -> None:
    with pytest.raises(PortOneError) as raised:
        portone.charge_again(customer_uid="nobody", merchant_uid="renewal-x", amount=1000, name="Renewal")

    assert (raised.value.status_code, raised.value.code) == (200, -1)
    with pytest.raises(PortOneError):
        portone.find_payment("renewal-x")


def test_the_pg_window_issues_a_billing_key_with_the_first_payment(
    sandbox: RunningSandbox, portone: PortOneClient
) -> None:
    result = sandbox.checkout(
        pg="kakaopay",
        pay_method="card",
        merchant_uid="order-9",
        amount=9_900,
        name="Subscription",
        customer_uid="customer-9",
        card_number="4000-1111-2222-3333",
    )

    assert result["success"] is True
    payment = portone.get_payment(result["imp_uid"])
    assert payment.customer_uid == "customer-9" and payment.customer_uid_usage == "issue"
    key = portone.get_billing_key("customer-9")
    assert (key.pg_provider, key.card_number) == ("kakaopay", "400011******3333")
    renewal = portone.charge_again(customer_uid="customer-9", merchant_uid="order-9-r1", amount=9_900, name="Renewal")
    assert renewal.status is PaymentStatus.PAID


def test_the_pg_window_can_issue_only_a_billing_key(sandbox: RunningSandbox, portone: PortOneClient) -> None:
    result = sandbox.checkout(pg="kcp_billing", merchant_uid="register-10", amount=0, customer_uid="customer-10")

    assert result["success"] is True
    assert portone.get_billing_key("customer-10").card_number == "424242******4242"
