"""Receipts the reactor finds together go to one task: each buyer gets the receipt a task of its own would have
sent, once, under its own task id, so a repeat of the batch or of one of its mails sends nothing twice."""

from __future__ import annotations

from uuid import UUID

import pytest

import bootstrap
from config.settings import Settings
from domain.catalogue.licences import Catalogue
from domain.payments.payment import Payment
from domain.payments.purchase import place_order, settle_payment
from domain.store import Storefront
from events.values import Language
from integrations.portone.gateway import PortOneGateway
from tests.integration.portone.harness import RunningSandbox
from tests.integration.purchases.conftest import SharedClock
from workers.tasks.payments import deliver_purchase_mail, deliver_purchase_mails

pytestmark = pytest.mark.integration


def _bought(
    store: Storefront, clock: SharedClock, gateway: PortOneGateway, catalogue: Catalogue, sandbox: RunningSandbox,
    email: str, language: Language,
) -> str:  # fmt: skip
    order = place_order(
        store, clock, gateway, catalogue, licence_id=121, country_code="KR", language=language,
        payment_method="creditCard", account_id=None, email=email,
    )  # fmt: skip
    paid = sandbox.checkout(
        pg=order.pg, pay_method=order.pay_method, merchant_uid=order.merchant_uid, name=order.name,
        amount=order.amount, buyer_email=order.buyer_email, card_number="4111111111111111",
    )  # fmt: skip
    settle_payment(store, clock, gateway, imp_uid=paid["imp_uid"], merchant_uid=order.merchant_uid, language=language)
    return str(Payment.id_for(order.merchant_uid))


def test_receipts_sent_together_are_the_receipts_each_task_would_send_once_each(
    settings: Settings,
    sandbox: RunningSandbox,
    gateway: PortOneGateway,
    domain_clock: SharedClock,
    catalogue: Catalogue,
    store: Storefront,
) -> None:
    buyers = [("ko.buyer@example.com", Language.KO), ("en.buyer@example.com", Language.EN)]
    payments = [_bought(store, domain_clock, gateway, catalogue, sandbox, *buyer) for buyer in buyers]
    workers = bootstrap.Services.build(settings, clock=domain_clock, payments=gateway)
    try:
        mails = [{"task_id": f"t-{n}", "payment_id": payment, "kind": "receipt"} for n, payment in enumerate(payments)]
        mails.append({"task_id": "t-unknown", "payment_id": str(Payment.id_for("never-ordered")), "kind": "receipt"})
        assert deliver_purchase_mails(workers, mails) == 2, "an order nobody placed has nothing to say"
        together = sorted(path.read_text() for path in settings.outbox_dir.glob("*.eml"))
        assert deliver_purchase_mails(workers, mails) == 0, "a repeated batch sends nothing again"
        assert not deliver_purchase_mail(workers, task_id="t-1", payment_id=Payment.id_for("x"), kind="receipt")

        for path in settings.outbox_dir.glob("*.eml"):
            path.unlink()
        for n, payment in enumerate(payments):  # the same receipts, one task each, under other task ids
            assert deliver_purchase_mail(workers, task_id=f"alone-{n}", payment_id=UUID(payment), kind="receipt")
        alone = sorted(path.read_text() for path in settings.outbox_dir.glob("*.eml"))
    finally:
        workers.close()
    assert len(together) == len(alone) == 2
    assert [_without_ids(mail) for mail in together] == [_without_ids(mail) for mail in alone]
    assert any("ko.buyer@example.com" in mail for mail in together) and any("en.buyer@" in mail for mail in together)


def _without_ids(mail: str) -> str:
    """A mail's text without the headers that differ between two sends (its Message-ID, from the task id; Date)."""
    return "\n".join(
        line for line in mail.splitlines() if not line.lower().startswith(("message-id:", "date:", "x-task"))
    )


def test_a_guest_who_ordered_on_an_english_page_gets_an_english_receipt_however_the_payment_settles(
    settings: Settings,
    sandbox: RunningSandbox,
    gateway: PortOneGateway,
    domain_clock: SharedClock,
    catalogue: Catalogue,
    store: Storefront,
) -> None:
    """Issue 29, finding 4: the gateway's webhook (no page, so no language) settled first and made the guest's
    account, and so the receipt, Korean. The order keeps its page's language."""
    order = place_order(
        store, domain_clock, gateway, catalogue, licence_id=121, country_code="KR", language=Language.EN,
        payment_method="creditCard", account_id=None, email="webhook.first@example.com",
    )  # fmt: skip
    paid = sandbox.checkout(
        pg=order.pg, pay_method=order.pay_method, merchant_uid=order.merchant_uid, name=order.name,
        amount=order.amount, buyer_email=order.buyer_email, card_number="4111111111111111",
    )  # fmt: skip
    settle_payment(store, domain_clock, gateway, imp_uid=paid["imp_uid"], merchant_uid=order.merchant_uid)
    workers = bootstrap.Services.build(settings, clock=domain_clock, payments=gateway)
    try:
        payment_id = Payment.id_for(order.merchant_uid)
        assert deliver_purchase_mail(workers, task_id="en-receipt", payment_id=payment_id, kind="receipt")
    finally:
        workers.close()
    [mail] = [path.read_text() for path in settings.outbox_dir.glob("*.eml")]
    assert "Your payment is complete" in mail
    assert "/en/register?" in mail
    assert "/ko/register" not in mail
