"""Support helps a customer from the back office, over HTTP on both stores against the PortOne sandbox: finds
them by licence key, frees a device, refunds part of a payment with a reason (after a fresh one-time code), and a
refund over the limit waits for a finance member, whom the requester cannot stand in for. Then the customer's
30-day money-back guarantee: a purchase 10 days old comes back at once; one 40 days old is refused with the code
that says why, and nothing is recorded of it."""

from __future__ import annotations

import io
import re
from contextlib import redirect_stdout
from datetime import timedelta
from typing import Any
from uuid import UUID

import httpx
import pytest

from api.staff_session import CSRF_HEADER, SESSION_COOKIE
from domain.accounts.auth import find_account_id
from domain.licences.licence import LicenceState, UserLicence
from domain.payments.purchase import place_order, settle_payment
from events.staff import StaffActed
from events.values import Language
from tests.integration.purchases.desk import GOOD_CARD, SUBSCRIBER, V1, Desk
from tests.staff_codes import code_at, enrol_with_code_app
from workers.operator import parse_args, run
from workers.reactions import REACTIONS
from workers.tasks.payments import deliver_purchase_mail

pytestmark = pytest.mark.integration

STAFF = f"{V1}/staff"


class Member:
    """A staff member's browser: their session cookie and CSRF value, and their code app's secret."""

    def __init__(self, desk: Desk, link: str) -> None:
        self.desk = desk
        client = desk.client
        self.secret, answer = enrol_with_code_app(client, STAFF, link, desk.services.clock.now())
        self.id = answer.json()["member"]["id"]
        self.session = client.cookies[SESSION_COOKIE]
        self.csrf = answer.json()["csrf"]
        client.cookies.clear()

    def code(self) -> str:
        return code_at(self.secret, self.desk.services.clock.now())

    def call(self, method: str, path: str, json: Any = None, params: Any = None) -> httpx.Response:
        client = self.desk.client
        client.cookies.clear()
        client.cookies.set(SESSION_COOKIE, self.session)
        answer = client.request(method, f"{STAFF}{path}", json=json, params=params, headers={CSRF_HEADER: self.csrf})
        if answer.cookies.get(SESSION_COOKIE):
            self.session = answer.cookies[SESSION_COOKIE]
        client.cookies.clear()
        return answer

    def step_up(self) -> None:
        assert self.call("POST", "/step-up/totp", json={"code": self.code()}).status_code == 200

    def invite(self, email: str, roles: list[str]) -> Member:
        answer = self.call("POST", "/members", json={"email": email, "name": email, "roles": roles, "reason": "hired"})
        assert answer.status_code == 201, answer.text
        return Member(self.desk, answer.json()["enrolmentLink"])


def first_owner(desk: Desk) -> Member:
    out = io.StringIO()
    with redirect_stdout(out):
        assert run(parse_args(["staff", "create-owner", "boss@example.com", "Boss"]), desk.services) == 0
    found = re.search(r"(http\S+/admin/enrol\?token=\S+)", out.getvalue())
    assert found
    return Member(desk, found.group(1))


def buy(desk: Desk, account_id: UUID, licence_id: int = 131) -> tuple[str, UUID, str]:
    """The customer buys a licence (by default lifetime for one device, $49.99); its merchantUid, licence id and
    key."""
    services = desk.services
    order = place_order(
        services.store,
        services.clock,
        services.payments,
        services.catalogue,
        licence_id=licence_id,
        country_code="US",
        language=Language.EN,
        payment_method="creditCard",
        account_id=account_id,
        email=SUBSCRIBER,
    )
    paid = desk.sandbox.checkout(
        pg=order.pg,
        pay_method=order.pay_method,
        merchant_uid=order.merchant_uid,
        name=order.name,
        amount=order.amount,
        currency=order.currency,
        buyer_email=order.buyer_email,
        card_number="4111111111111111",
    )
    settled = settle_payment(
        services.store, services.clock, services.payments, imp_uid=paid["imp_uid"], merchant_uid=order.merchant_uid
    )
    licence: UserLicence = services.store.repository.get(settled.user_licence_id)
    return order.merchant_uid, settled.user_licence_id, licence.licence_key


def test_support_helps_a_customer_and_a_large_refund_waits_for_finance(desk: Desk) -> None:
    desk.services.settings = desk.services.settings.model_copy(update={"staff_refund_approval_limits": "USD=2500"})
    account_id = find_account_id(desk.services.store, SUBSCRIBER)
    assert account_id is not None
    merchant_uid, licence_id, key = buy(desk, account_id)
    device = {"licenseKey": key, "deviceId": "phone-1", "deviceName": "Phone", "platform": "android"}
    assert desk.guest_call("POST", "/licenses/activate", json=device).status_code == 200

    owner = first_owner(desk)
    support = owner.invite("help@example.com", ["support"])
    finance = owner.invite("money@example.com", ["finance"])
    desk.views_caught_up()

    [found] = support.call("GET", "/customers", params={"q": key}).json()
    assert (found["accountId"], found["matched"]) == (str(account_id), "licence key")
    assert support.call("GET", "/customers", params={"q": "phone-1"}).json()[0]["matched"] == "device id"

    freed = support.call("POST", f"/licences/{licence_id}/devices/phone-1/free", json={"reason": "new phone"})
    assert freed.status_code == 204, freed.text
    licence: UserLicence = desk.services.store.repository.get(licence_id)
    assert licence.devices == {} or not licence.devices

    # Support resends the receipt: the reactor's task for the staff action mails it again.
    mails_before = len(list(desk.services.settings.outbox_dir.glob("*.eml")))
    assert support.call("POST", f"/payments/{merchant_uid}/resend-receipt", json={}).status_code == 204
    [resent] = [
        event
        for event in desk.services.store.repository.event_store.get(UUID(support.id))
        if isinstance(event, StaffActed) and event.action == "resend-receipt"
    ]
    [call] = REACTIONS[StaffActed](resent)
    assert (call.name, call.kwargs["kind"]) == ("payments.send_purchase_mail", "receipt")
    assert deliver_purchase_mail(
        desk.services, task_id="resend-1", payment_id=UUID(call.kwargs["payment_id"]), kind="receipt"
    )
    assert len(list(desk.services.settings.outbox_dir.glob("*.eml"))) == mails_before + 1

    # Money needs a fresh proof: the sign-in was more than the step-up window ago.
    desk.clock.advance(timedelta(minutes=6))
    stale = support.call("POST", f"/payments/{merchant_uid}/refund", json={"amount": 1000, "reason": "goodwill"})
    assert stale.status_code == 403, stale.text
    support.step_up()
    assert support.call("POST", f"/payments/{merchant_uid}/refund", json={"amount": 1000}).status_code == 400
    goodwill = {"amount": 1000, "reason": "goodwill"}
    unsaid = support.call("POST", f"/payments/{merchant_uid}/refund", json=goodwill)
    assert (unsaid.status_code, unsaid.json()["errorCode"]) == (400, -1), "keep or shorten the licence: say which"
    preview = support.call("GET", f"/payments/{merchant_uid}/refund-preview", params={"amount": 1000}).json()
    assert (preview["revokes"], preview["refundable"]) == (False, 4999) and preview["shortenedTo"] is not None
    partial = support.call("POST", f"/payments/{merchant_uid}/refund", json={**goodwill, "licenceEffect": "keep"})
    assert partial.json() == {
        "refunded": 1000, "requestId": None, "state": "refunded", "licenceEffect": "keep"
    }, partial.text  # fmt: skip

    # Above the limit ($25.00, counted with what the payment was refunded before) it waits; the requester cannot
    # approve it, finance can.
    waiting = support.call(
        "POST", f"/payments/{merchant_uid}/refund", json={"amount": 2000, "reason": "broken", "licenceEffect": "keep"}
    )
    assert waiting.json()["state"] == "waiting", "1,000 before and 2,000 now: over $25.00 in all"
    request_id = waiting.json()["requestId"]

    def waiting_requests() -> list[str]:
        # Read at once after each answer, as the desk's page does: the answer came once the list had it.
        return [row["requestId"] for row in finance.call("GET", "/refund-requests?state=waiting").json()]

    assert waiting_requests() == [request_id]
    assert support.call("POST", f"/refund-requests/{request_id}/approve", json={"reason": "mine"}).status_code == 403
    finance.step_up()
    approved = finance.call("POST", f"/refund-requests/{request_id}/approve", json={"reason": "checked"})
    assert approved.json()["refunded"] == 2000, approved.text
    assert waiting_requests() == []
    assert finance.call("POST", f"/refund-requests/{request_id}/approve", json={"reason": "again"}).status_code == 400

    # Every staff action is in the log with its actor and reason, and on the customer's timeline.
    acted = [
        event
        for member in (support, finance)
        for event in desk.services.store.repository.event_store.get(UUID(member.id))
        if isinstance(event, StaffActed)
    ]
    assert [(event.action, event.reason) for event in acted] == [
        ("free-device", "new phone"),
        ("resend-receipt", ""),
        ("refund", "goodwill"),
        ("request-refund", "broken"),
        ("refund", "checked"),
    ]
    desk.views_caught_up()
    page = support.call("GET", f"/customers/{account_id}").json()
    topics = [entry["topic"] for entry in page["timeline"]]
    assert topics.count("payment.Refunded") == 2 and topics.count("staff.Acted") == 5
    assert [row["state"] for row in page["refundRequests"]] == ["refunded"]
    assert "payment.Ordered" in topics and "licence.DeviceRemoved" in topics


def test_the_money_back_guarantee_refunds_a_recent_first_purchase_and_refuses_an_old_one(desk: Desk) -> None:
    account_id = find_account_id(desk.services.store, SUBSCRIBER)
    assert account_id is not None
    old_uid, old_licence, _ = buy(desk, account_id)
    desk.clock.advance(timedelta(days=30))
    recent_uid, recent_licence, _ = buy(desk, account_id)
    desk.clock.advance(timedelta(days=10))

    refunded = desk.call("POST", f"/payments/licenses/{recent_uid}/money-back")
    assert refunded.status_code == 200, refunded.text
    assert (refunded.json()["state"], refunded.json()["amount"]) == ("refunded", 4999)
    licence: UserLicence = desk.services.store.repository.get(recent_licence)
    assert licence.state is LicenceState.REVOKED
    assert desk.call("POST", f"/payments/licenses/{recent_uid}/money-back").json()["state"] == "refunded"

    refused = desk.call("POST", f"/payments/licenses/{old_uid}/money-back")
    assert (refused.status_code, refused.json()["errorCode"]) == (400, -340), "too late: said, and nothing recorded"
    kept: UserLicence = desk.services.store.repository.get(old_licence)
    assert kept.state is LicenceState.ACTIVE
    desk.register("other@example.com")
    assert (
        desk.call("POST", f"/payments/licenses/{old_uid}/money-back", as_email="other@example.com").status_code == 404
    )

    owner = first_owner(desk)
    desk.views_caught_up()
    page = owner.call("GET", f"/customers/{account_id}").json()
    decided = [entry for entry in page["timeline"] if entry["topic"] in ("refund.Approved", "refund.Refused")]
    assert [(entry["topic"], entry["fields"]["reason"]) for entry in decided] == [
        ("refund.Approved", "30-day money-back guarantee"),
    ]


def test_support_cancels_and_resumes_a_subscription_for_the_customer(desk: Desk) -> None:
    started = desk.call(
        "POST",
        "/payments/licenses/subscribe/new/new-billingkey",
        json={"licenseId": 111, "countryCode": "KR", "card": GOOD_CARD},
    )
    assert started.status_code == 200, started.text
    licence_id = started.json()["userLicenseId"]
    account_id = find_account_id(desk.services.store, SUBSCRIBER)
    owner = first_owner(desk)
    support = owner.invite("help@example.com", ["support"])
    marketing = owner.invite("ads@example.com", ["marketing"])
    desk.views_caught_up()
    [row] = support.call("GET", f"/customers/{account_id}").json()["subscriptions"]
    subscription_id = row["subscription_id"]

    path = f"/subscriptions/{subscription_id}"
    assert support.call("POST", f"{path}/cancel", json={"reason": " "}).status_code == 400
    assert marketing.call("POST", f"{path}/cancel", json={"reason": "asked"}).status_code == 403
    assert support.call("POST", f"{path}/resume", json={"reason": "asked"}).status_code == 409  # not cancelled
    cancelled = support.call("POST", f"{path}/cancel", json={"reason": "asked by phone"})
    assert cancelled.status_code == 204, cancelled.text
    state = desk.call("GET", f"/payments/licenses/subscribe/{licence_id}").json()
    assert state["status"] == "cancelled"
    resumed = support.call("POST", f"{path}/resume", json={"reason": "changed their mind"})
    assert resumed.status_code == 204, resumed.text
    desk.views_caught_up()
    assert desk.call("GET", f"/payments/licenses/subscribe/{licence_id}").json()["status"] == "active"

    acted = [
        event
        for event in desk.services.store.repository.event_store.get(UUID(support.id))
        if isinstance(event, StaffActed)
    ]
    assert [(event.action, event.subject, event.reason) for event in acted] == [
        ("cancel-subscription", subscription_id, "asked by phone"),
        ("resume-subscription", subscription_id, "changed their mind"),
    ]
    topics = [entry["topic"] for entry in support.call("GET", f"/customers/{account_id}").json()["timeline"]]
    assert topics.count("staff.Acted") == 2


def test_support_records_an_app_store_purchase_which_a_second_member_verifies(desk: Desk) -> None:
    account_id = find_account_id(desk.services.store, SUBSCRIBER)
    owner = first_owner(desk)
    support = owner.invite("help@example.com", ["support"])
    marketing = owner.invite("ads@example.com", ["marketing"])
    finance = owner.invite("money@example.com", ["finance"])
    body = {"licenceId": 131, "appleTransactionId": "2000000123", "countryCode": "US", "reason": "receipt by mail"}
    path = f"/customers/{account_id}/app-store-purchases"
    assert marketing.call("POST", path, json=body).status_code == 403
    assert support.call("POST", path, json={**body, "appleTransactionId": "no-such!"}).status_code == 400
    recorded = support.call("POST", path, json=body)
    assert recorded.status_code == 200, recorded.text
    assert recorded.json()["state"] == "waiting", "nothing here verifies a transaction with Apple"
    request_id = recorded.json()["requestId"]
    assert support.call("POST", path, json=body).json() == recorded.json()  # the same transaction: that request
    assert support.call("POST", f"/grant-requests/{request_id}/approve", json={"reason": "mine"}).status_code == 403

    approved = finance.call("POST", f"/grant-requests/{request_id}/approve", json={"reason": "in App Store Connect"})
    assert approved.status_code == 200, approved.text
    assert approved.json()["merchantUid"] == "apple-2000000123"
    licence: UserLicence = desk.services.store.repository.get(UUID(approved.json()["userLicenceId"]))
    assert licence.account_id == account_id
    assert approved.json()["licenceKey"].endswith(licence.licence_key[-4:]), "finance sees the key masked"
    again = support.call("POST", path, json=body).json()
    assert (again["state"], again["licenceKey"]) == (
        "granted",
        licence.licence_key,
    )  # the same transaction: that licence

    acted = [
        (event.action, event.subject, event.reason)
        for member in (support, finance)
        for event in desk.services.store.repository.event_store.get(UUID(member.id))
        if isinstance(event, StaffActed)
    ]
    assert acted == [
        ("request-grant", "2000000123", "receipt by mail"),
        ("record-app-store-purchase", "apple-2000000123", "in App Store Connect"),
    ]
    desk.views_caught_up()
    page = support.call("GET", f"/customers/{account_id}").json()
    assert [row["licence_key"] for row in page["licences"]] == [licence.licence_key]
    topics = [entry["topic"] for entry in page["timeline"]]
    assert "staff.Acted" in topics and "grant.Requested" in topics and "grant.Approved" in topics
