"""A payment's papers over HTTP, against the sandbox, on each store (docs/papers.md): the cash receipt a
virtual-account buyer asked for is issued at the sandbox after the deposit, issued again for the remainder after a
partial refund and cancelled by the full refund; a card payment cannot ask for a tax invoice, a bank transfer can
and finance's export has it; one supply gets one paper (a cash receipt or a tax invoice, never both) and a full
refund withdraws the tax-invoice request; a receipt in Japanese for a coupon-discounted upgrade reads as it should
and comes out the same bytes every time."""

from __future__ import annotations

import csv
import io
import subprocess
from datetime import timedelta
from decimal import Decimal
from typing import Any
from uuid import UUID

import pytest

from domain.coupons.admin import open_group
from domain.coupons.group import ConstraintType, GroupRules, GroupType
from domain.papers.papers import PaymentPapers
from domain.payments.payment import Payment
from domain.payments.refunds import record_refunds_made_elsewhere
from events.papers import DocumentIssued
from integrations.portone.gateway import PortOneGateway
from integrations.portone.models import RefundAccount
from tests.integration.purchases.desk import Desk
from tests.integration.test_staff_api import Desk as StaffDesk
from tests.integration.test_staff_api import first_owner_link
from workers.reactions import REACTIONS
from workers.tasks.papers import sync_cash_receipt

pytestmark = pytest.mark.integration

ANNUAL, MONTHLY, ANNUAL_3 = 121, 111, 123
BUSINESS_NUMBER = "124-81-00998"
CARD = "4111111111111111"


def _order(desk: Desk, method: str, licence_id: int = ANNUAL, **extra: Any) -> dict[str, Any]:
    body = {"licenseId": licence_id, "countryCode": "KR", "paymentMethod": method, **extra}
    answer = desk.call("POST", "/payments/licenses/new", json=body)
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


def _pay(desk: Desk, order: dict[str, Any], confirm: str = "/payments/licenses/new/confirm") -> str:
    paid = desk.sandbox.checkout(
        pg=order["pg"], pay_method=order["payMethod"], merchant_uid=order["merchantUid"], name=order["name"],
        amount=order["amount"], currency=order["currency"], buyer_email=order["buyerEmail"], card_number=CARD,
    )  # fmt: skip
    imp_uid: str = paid["imp_uid"]
    confirmed = desk.call("POST", confirm, json={"impUid": imp_uid, "merchantUid": order["merchantUid"]})
    assert confirmed.status_code == 200, confirmed.text
    return imp_uid


def _run_cash_receipt_tasks(desk: Desk, after: int) -> int:
    """What the reactor and the worker do with the cash-receipt tasks of the events after ``after``."""
    store = desk.services.store
    last = after
    for notification in store.recorder.select_notifications(start=after + 1, limit=10_000):
        event = store.mapper.to_domain_event(notification)
        reaction = REACTIONS.get(type(event))
        for call in reaction(event) if reaction else []:
            if call.name == "papers.sync_cash_receipt":
                sync_cash_receipt(desk.services, payment_id=UUID(call.kwargs["payment_id"]))
        last = notification.id
    return last


def _papers(desk: Desk, merchant_uid: str) -> dict[str, Any]:
    answer = desk.call("GET", f"/payments/licenses/{merchant_uid}/papers")
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


def _refund_at_the_gateway(desk: Desk, imp_uid: str, merchant_uid: str, amount: int) -> None:
    """Support refunds a paid virtual account at the gateway, to the buyer's bank account, and records it
    (``python -m workers.operator record-refund``): our refund call has no account to send a deposit back to."""
    payment: Payment = desk.services.store.repository.get(Payment.id_for(merchant_uid))
    with desk.sandbox.client() as client:
        client.cancel(
            imp_uid=imp_uid, amount=amount, checksum=payment.gateway_balance, reason="customer asked",
            refund=RefundAccount(holder="홍길동", bank="04", account="12345678901234"),
        )  # fmt: skip
    assert record_refunds_made_elsewhere(
        desk.services.store, desk.services.clock, desk.services.payments, merchant_uid
    ) == amount  # fmt: skip


def test_a_business_cash_receipt_is_issued_after_the_deposit_reissued_for_the_remainder_and_cancelled(
    desk: Desk,
) -> None:
    gateway = desk.services.payments
    assert isinstance(gateway, PortOneGateway)
    refused = desk.call(
        "POST", "/payments/licenses/new",
        json={"licenseId": ANNUAL, "paymentMethod": "virtualAccount",
              "cashReceipt": {"type": "business", "number": "124-81-00999"}},
    )  # fmt: skip
    assert (refused.status_code, refused.json()["errorCode"]) == (400, -2), "the check digit is wrong"
    by_card = desk.call(
        "POST", "/payments/licenses/new",
        json={"licenseId": ANNUAL, "paymentMethod": "creditCard", "cashReceipt": {"type": "personal",
              "number": "010-1234-5678"}},
    )  # fmt: skip
    assert by_card.json()["errorCode"] == -2, "a card payment has its card slip, not a cash receipt"

    order = _order(desk, "virtualAccount", cashReceipt={"type": "business", "number": BUSINESS_NUMBER})
    merchant_uid, amount = order["merchantUid"], order["amount"]
    imp_uid = _pay(desk, order)
    position = _run_cash_receipt_tasks(desk, 0)
    assert gateway.cash_receipt(imp_uid) is None, "nothing is issued before the money arrives"
    desk.views_caught_up()
    assert _papers(desk, merchant_uid)["cashReceipt"] == {
        "kind": "business", "number": "124-81-*****", "state": "requested", "amount": None, "issuedAt": None,
    }  # fmt: skip

    assert desk.sandbox.deposit(imp_uid).status_code == 200
    desk.guest_call("POST", "/payments/webhook", json={"imp_uid": imp_uid, "merchant_uid": merchant_uid})
    position = _run_cash_receipt_tasks(desk, position)
    issued = gateway.cash_receipt(imp_uid)
    assert issued is not None and issued.cancelled_at is None
    assert (issued.amount, issued.type, issued.vat) == (amount, "company", round(amount / 11))
    recorded = desk.services.store.max_notification_id()
    _run_cash_receipt_tasks(desk, 0)  # the reactor sends them all again: nothing new is issued or recorded
    assert desk.services.store.max_notification_id() == recorded and gateway.cash_receipt(imp_uid) == issued
    desk.views_caught_up()
    shown = _papers(desk, merchant_uid)
    assert (shown["cashReceipt"]["state"], shown["cashReceipt"]["amount"]) == ("issued", amount)
    assert "1248100998" not in str(shown) and "00998" not in str(shown), "the number is never shown whole again"

    _refund_at_the_gateway(desk, imp_uid, merchant_uid, 10_000)
    position = _run_cash_receipt_tasks(desk, position)
    reissued = gateway.cash_receipt(imp_uid)
    assert reissued is not None and reissued.cancelled_at is None
    assert reissued.amount == amount - 10_000 and reissued.receipt_tid != issued.receipt_tid
    desk.views_caught_up()
    assert _papers(desk, merchant_uid)["cashReceipt"]["amount"] == amount - 10_000
    assert [doc["kind"] for doc in _papers(desk, merchant_uid)["documents"]] == ["receipt", "refund-note"]

    _refund_at_the_gateway(desk, imp_uid, merchant_uid, amount - 10_000)
    _run_cash_receipt_tasks(desk, position)
    cancelled = gateway.cash_receipt(imp_uid)
    assert cancelled is not None and cancelled.receipt_tid == reissued.receipt_tid and cancelled.cancelled_at
    assert _papers(desk, merchant_uid)["cashReceipt"]["state"] == "cancelled"
    papers: PaymentPapers = desk.services.store.repository.get(PaymentPapers.id_for(merchant_uid))
    assert [(r["amount"], r["cancelled_at"] is not None) for r in papers.cash_receipts] == [
        (amount, True), (amount - 10_000, True)
    ]  # fmt: skip


def test_a_card_payment_cannot_ask_for_a_tax_invoice_and_a_bank_transfer_can_and_finance_exports_it(
    desk: Desk,
) -> None:
    invoice = {
        "businessNumber": BUSINESS_NUMBER, "companyName": "주식회사 광고없음", "representative": "김대표",
        "address": "서울특별시 중구 세종대로 110", "email": "tax@adfree.example",
    }  # fmt: skip
    card = _order(desk, "creditCard")
    _pay(desk, card)
    desk.views_caught_up()
    assert "taxInvoice" not in _papers(desk, card["merchantUid"])["allowed"]
    refused = desk.call("POST", f"/payments/licenses/{card['merchantUid']}/tax-invoice", json=invoice)
    assert (refused.status_code, refused.json()["errorCode"]) == (409, -320)

    transfer = _order(desk, "bankTransfer")
    _pay(desk, transfer)
    desk.views_caught_up()
    assert _papers(desk, transfer["merchantUid"])["allowed"] == ["taxInvoice"]
    wrong = desk.call(
        "POST", f"/payments/licenses/{transfer['merchantUid']}/tax-invoice",
        json={**invoice, "businessNumber": "124-81-00990"},
    )  # fmt: skip
    assert wrong.json()["errorCode"] == -2
    desk.register("other@example.com")
    theirs = desk.call(
        "POST", f"/payments/licenses/{transfer['merchantUid']}/tax-invoice", json=invoice, as_email="other@example.com"
    )
    assert theirs.status_code == 404, "only the buyer asks"
    asked = desk.call("POST", f"/payments/licenses/{transfer['merchantUid']}/tax-invoice", json=invoice)
    assert asked.status_code == 200, asked.text
    assert asked.json()["businessNumber"] == "124-81-*****"
    again = desk.call("POST", f"/payments/licenses/{transfer['merchantUid']}/tax-invoice", json=invoice)
    assert again.json()["errorCode"] == -3
    assert _papers(desk, transfer["merchantUid"])["taxInvoice"]["companyName"] == "주식회사 광고없음"

    staff = StaffDesk(desk.services, desk.services.clock, desk.client)  # type: ignore[arg-type]
    owner, _ = staff.enrol(first_owner_link(desk.services))
    queue = staff.call("GET", "/finance/tax-invoices", owner)
    assert queue.status_code == 200, queue.text
    assert [(row["merchantUid"], row["businessNumber"]) for row in queue.json()] == [
        (transfer["merchantUid"], "124-81-*****")
    ]
    export = staff.call("GET", "/finance/tax-invoices.csv", owner)
    assert export.status_code == 200 and export.headers["content-type"].startswith("text/csv")
    [row] = list(csv.DictReader(io.StringIO(export.content.decode("utf-8-sig"))))
    vat = round(transfer["amount"] / 11)
    assert row["공급받는자 등록번호"] == BUSINESS_NUMBER and row["공급받는자 상호"] == "주식회사 광고없음"
    assert (int(row["합계금액"]), int(row["세액"]), int(row["공급가액"])) == (
        transfer["amount"], vat, transfer["amount"] - vat
    )  # fmt: skip
    assert row["주문번호"] == transfer["merchantUid"]
    desk.client.cookies.clear()


def test_one_supply_gets_a_cash_receipt_or_a_tax_invoice_and_a_full_refund_withdraws_the_request(desk: Desk) -> None:
    invoice = {
        "businessNumber": BUSINESS_NUMBER, "companyName": "주식회사 광고없음", "representative": "김대표",
        "address": "서울특별시 중구 세종대로 110", "email": "tax@adfree.example",
    }  # fmt: skip
    with_receipt = _order(desk, "bankTransfer", cashReceipt={"type": "business", "number": BUSINESS_NUMBER})
    _pay(desk, with_receipt)
    position = _run_cash_receipt_tasks(desk, 0)
    desk.views_caught_up()
    assert _papers(desk, with_receipt["merchantUid"])["cashReceipt"]["state"] == "issued"
    assert _papers(desk, with_receipt["merchantUid"])["allowed"] == [], "the cash receipt is the supply's paper"
    refused = desk.call("POST", f"/payments/licenses/{with_receipt['merchantUid']}/tax-invoice", json=invoice)
    assert (refused.status_code, refused.json()["errorCode"]) == (409, -380)

    transfer = _order(desk, "bankTransfer")
    imp_uid = _pay(desk, transfer)
    asked = desk.call("POST", f"/payments/licenses/{transfer['merchantUid']}/tax-invoice", json=invoice)
    assert asked.status_code == 200, asked.text
    desk.views_caught_up()
    assert _papers(desk, transfer["merchantUid"])["taxInvoice"]["state"] == "requested"

    _refund_at_the_gateway(desk, imp_uid, transfer["merchantUid"], transfer["amount"])
    _run_cash_receipt_tasks(desk, position)
    recorded = desk.services.store.max_notification_id()
    _run_cash_receipt_tasks(desk, position)  # the reactor sends it again: withdrawn once
    assert desk.services.store.max_notification_id() == recorded
    desk.views_caught_up()
    shown = _papers(desk, transfer["merchantUid"])
    assert shown["taxInvoice"]["state"] == "withdrawn" and shown["taxInvoice"]["withdrawnAt"]
    assert shown["allowed"] == []
    again = desk.call("POST", f"/payments/licenses/{transfer['merchantUid']}/tax-invoice", json=invoice)
    assert again.status_code in (400, 409)

    staff = StaffDesk(desk.services, desk.services.clock, desk.client)  # type: ignore[arg-type]
    owner, _ = staff.enrol(first_owner_link(desk.services))
    [queued] = staff.call("GET", "/finance/tax-invoices", owner).json()
    assert (queued["merchantUid"], bool(queued["withdrawnAt"])) == (transfer["merchantUid"], True)
    export = staff.call("GET", "/finance/tax-invoices.csv", owner)
    assert list(csv.DictReader(io.StringIO(export.content.decode("utf-8-sig")))) == [], "nothing left to invoice"
    desk.client.cookies.clear()


def _text_of(pdf: bytes) -> str:
    done = subprocess.run(["pdftotext", "-enc", "UTF-8", "-", "-"], input=pdf, capture_output=True, check=True)
    return done.stdout.decode("utf-8")


def test_a_japanese_receipt_of_a_coupon_discounted_upgrade_names_every_discount_and_is_the_same_each_time(
    desk: Desk,
) -> None:
    rules = GroupRules(
        name="upgrade week", group_type=GroupType.PUBLIC, constraint_type=ConstraintType.USER_LICENCE,
        factor=Decimal("0.1"), available_duration=365, sub_issued_count=100,
    )  # fmt: skip
    open_group(desk.services.store, desk.clock(), rules, code="UPGRADE10")
    bought = _order(desk, "creditCard", licence_id=MONTHLY)
    _pay(desk, bought)
    desk.views_caught_up()
    licence_id = desk.call("GET", "/licenses/mine").json()[0]["id"]
    desk.clock.advance(timedelta(days=15))
    plans = desk.call("GET", f"/purchasable-licenses/upgrade/licenses/{licence_id}", params={"code": "UPGRADE10"})
    target = {plan["id"]: plan for plan in plans.json()["licenses"]}[ANNUAL_3]
    upgrade = desk.call(
        "POST", f"/payments/licenses/{licence_id}/upgrade",
        json={"licenseId": ANNUAL_3, "paymentMethod": "creditCard", "code": "UPGRADE10",
              "requestPrice": target["requestPrice"]},
    ).json()  # fmt: skip
    _pay(desk, upgrade, confirm="/payments/licenses/upgrade/confirm")
    desk.views_caught_up()
    merchant_uid = upgrade["merchantUid"]
    other = desk.call("GET", f"/payments/licenses/{merchant_uid}/receipt", as_email=_another(desk))
    assert other.status_code == 404, "only the buyer downloads it"

    first = desk.call("GET", f"/payments/licenses/{merchant_uid}/receipt", params={"langCode": "ja"})
    assert first.status_code == 200, first.text
    assert first.headers["content-type"] == "application/pdf" and first.content.startswith(b"%PDF")
    desk.clock.advance(timedelta(hours=1))
    second = desk.call("GET", f"/payments/licenses/{merchant_uid}/receipt", params={"langCode": "ja"})
    assert second.content == first.content, "two downloads are byte-identical"

    text = _text_of(first.content)
    record = {r["merchantUid"]: r for r in desk.history()}[merchant_uid]
    assert "ユニコーン Pro Android版 1年サブスクリプション (3台)" in text, "the Japanese product name"
    assert "領収書" in text and merchant_uid in text and "クレジットカード" in text
    assert "基本割引 30%" in text and "アップグレード残額控除" in text and "クーポン割引 (UPGRADE10) 10%" in text
    assert f"{upgrade['amount']:,} KRW" in text and f"{record['originalAmount']:,} KRW" in text
    assert f"{round(upgrade['amount'] / 11):,} KRW" in text, "the VAT inside the amount"

    import hashlib

    events = list(desk.services.store.repository.event_store.get(PaymentPapers.id_for(merchant_uid)))
    issued = [event for event in events if isinstance(event, DocumentIssued)]
    assert [(e.kind, e.language, e.sha256) for e in issued] == [
        ("receipt", "ja", hashlib.sha256(first.content).hexdigest())
    ], "its SHA-256 is recorded once"
    assert first.headers["x-document-sha256"] == issued[0].sha256
    korean = desk.call("GET", f"/payments/licenses/{merchant_uid}/receipt", params={"langCode": "ko"})
    assert "영수증" in _text_of(korean.content) and "쿠폰 할인 (UPGRADE10) 10%" in _text_of(korean.content)
    missing = desk.call("GET", f"/payments/licenses/{merchant_uid}/refund-notes/1")
    assert missing.status_code == 404


def _another(desk: Desk) -> str:
    desk.register("stranger@example.com")
    return "stranger@example.com"
