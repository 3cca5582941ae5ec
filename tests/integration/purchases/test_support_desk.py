"""Support's desk, over HTTP on both stores: a customer's report (with its image) is listed, filtered, opened and
closed as handled; each timeline entry links to an inclusion proof that the independent Go verifier accepts; the
licence key is mailed again on support's word; a refund mails the buyer; a one-time code is never good twice; and a
licence key seen on too many devices is flagged on the customer's page and timeline."""

from __future__ import annotations

import email
import email.policy
from datetime import timedelta
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from domain.accounts.auth import find_account_id
from domain.payments.payment import Payment
from events.payments import PaymentRefunded
from events.reports import ReportHandled
from events.staff import StaffActed
from tests import images
from tests.integration.audit.test_independent_verifier import check_with_go
from tests.integration.purchases.desk import SUBSCRIBER, V1, Desk
from tests.integration.purchases.test_back_office_support import STAFF, Member, buy, first_owner
from workers.reactions import REACTIONS
from workers.tasks.support_mails import deliver_licence_key_mail, deliver_refund_mail

pytestmark = pytest.mark.integration


def outbox(desk: Desk) -> list[Path]:
    return sorted(desk.services.settings.outbox_dir.glob("*.eml"))


def read_mail(path: Path) -> tuple[str, str, str]:
    """The mail's recipient, subject and text."""
    message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    body = message.get_body(preferencelist=("plain",))
    assert body is not None
    return str(message["To"]), str(message["Subject"]), str(body.get_content())


def acted(desk: Desk, member: Member) -> list[StaffActed]:
    return [
        event
        for event in desk.services.store.repository.event_store.get(UUID(member.id))
        if isinstance(event, StaffActed)
    ]


def send_report(desk: Desk, problem: str = "ad", **fields: str) -> str:
    form = {"product": "uncpm", "problem": problem, "url": "https://news.example/a", "checked": "true", **fields}
    parts = [("images", ("shot.png", images.plain_png(24, 16), "application/octet-stream"))]
    desk.clock.advance(timedelta(seconds=1))
    headers = {"Authorization": f"Bearer {desk.access_token(SUBSCRIBER)}"}
    answer = desk.client.post(f"{V1}/reports", data=form, files=parts, headers=headers)
    assert answer.status_code == 200, answer.text
    return str(answer.json()["reportId"])


def test_support_lists_a_report_with_its_image_and_closes_it_as_handled(desk: Desk) -> None:
    account_id = find_account_id(desk.services.store, SUBSCRIBER)
    ad = send_report(desk, "ad", comment="A banner on top")
    bug = send_report(desk, "bug", url="")
    owner = first_owner(desk)
    support = owner.invite("help@example.com", ["support"])
    marketing = owner.invite("ads@example.com", ["marketing"])
    desk.views_caught_up()

    listed = support.call("GET", "/reports", params={"state": "open"}).json()
    assert listed["total"] == 2 and [row["reportId"] for row in listed["reports"]] == [bug, ad], "newest first"
    [only_ads] = support.call("GET", "/reports", params={"problem": "ad"}).json()["reports"]
    assert (only_ads["reportId"], only_ads["comment"], only_ads["accountId"]) == (
        ad,
        "A banner on top",
        str(account_id),
    )
    later = (desk.services.clock.now() + timedelta(days=1)).isoformat()
    assert support.call("GET", "/reports", params={"since": later}).json() == {"total": 0, "reports": []}
    assert support.call("GET", "/reports", params={"problem": "popup"}).status_code == 400

    # The image opens through its signed link (no staff cookie needed, and a changed link is refused).
    [image] = only_ads["images"]
    assert (image["contentType"], image["width"], image["height"]) == ("image/png", 24, 16)
    desk.client.cookies.clear()
    opened = desk.client.get(image["link"])
    assert opened.status_code == 200 and opened.content.startswith(b"\x89PNG")
    forged = image["link"][:-1] + ("1" if image["link"].endswith("0") else "0")
    assert desk.client.get(forged).status_code == 403

    # Marketing reads reports but does not close them; a reason is required; support closes it once.
    assert marketing.call("GET", "/reports").status_code == 200
    assert marketing.call("POST", f"/reports/{ad}/close", json={"reason": "fixed"}).status_code == 403
    assert support.call("POST", f"/reports/{ad}/close", json={"reason": " "}).status_code == 400
    closed = support.call("POST", f"/reports/{ad}/close", json={"reason": "added a filter rule"})
    assert closed.status_code == 204, closed.text
    assert support.call("POST", f"/reports/{ad}/close", json={"reason": "again"}).status_code == 400
    assert support.call("POST", f"/reports/{UUID(int=7)}/close", json={"reason": "x"}).status_code == 404

    [handled] = support.call("GET", "/reports", params={"state": "handled"}).json()["reports"]
    assert (handled["reportId"], handled["handledBy"], handled["handledReason"]) == (
        ad,
        support.id,
        "added a filter rule",
    )
    assert [row["reportId"] for row in support.call("GET", "/reports", params={"state": "open"}).json()["reports"]] == [
        bug
    ]
    history = list(desk.services.store.repository.event_store.get(UUID(ad)))
    assert isinstance(history[-1], ReportHandled) and str(history[-1].actor_id) == support.id
    [action] = acted(desk, support)
    assert (action.action, action.subject, action.reason) == ("close-report", ad, "added a filter rule")

    # The customer's timeline shows the report, its closing, and the member's action.
    desk.views_caught_up()
    topics = [entry["topic"] for entry in support.call("GET", f"/customers/{account_id}").json()["timeline"]]
    assert topics.count("report.Submitted") == 2 and "report.Handled" in topics and "staff.Acted" in topics


def test_each_timeline_entry_links_to_a_proof_the_go_verifier_accepts(desk: Desk) -> None:
    desk.services.settings = desk.services.settings.model_copy(update={"staff_refund_approval_limits": "USD=5000"})
    account_id = find_account_id(desk.services.store, SUBSCRIBER)
    assert account_id is not None
    merchant_uid, _, _ = buy(desk, account_id)
    owner = first_owner(desk)
    support = owner.invite("help@example.com", ["support"])
    desk.clock.advance(timedelta(minutes=1))
    support.step_up()
    refunded = support.call(
        "POST", f"/payments/{merchant_uid}/refund", json={"amount": 1000, "reason": "asked", "licenceEffect": "keep"}
    )
    assert refunded.json()["state"] == "refunded", refunded.text
    desk.views_caught_up()

    timeline = support.call("GET", f"/customers/{account_id}").json()["timeline"]
    [refund_action] = [entry for entry in timeline if entry["topic"] == "staff.Acted"]
    [registered] = [entry for entry in timeline if entry["topic"] == "account.Registered"]
    assert registered["notificationId"] is None, "an event holding a password hash gets no proof"
    proved = [entry for entry in timeline if entry["notificationId"] is not None]
    assert {entry["topic"] for entry in proved} >= {"payment.Ordered", "payment.Refunded", "staff.Acted"}

    answer = support.call("GET", f"/proofs/{refund_action['notificationId']}")
    assert answer.status_code == 200, answer.text
    assert "attachment" in answer.headers["content-disposition"]
    document: dict[str, Any] = answer.json()
    [event] = document["events"]
    assert event["notification_id"] == refund_action["notificationId"]
    payment_proof = support.call("GET", f"/proofs/{proved[0]['notificationId']}").json()

    outcomes = check_with_go(
        {
            "verifier_key": document["verifier_key"],
            "inclusions": [
                {
                    "name": name,
                    "note": proof["checkpoint"],
                    "record": proof["events"][0]["record"],
                    "index": proof["events"][0]["leaf_index"],
                    "proof": proof["events"][0]["inclusion_path"],
                }
                for name, proof in (("staff-refund", document), ("first-entry", payment_proof))
            ],
            "consistency": [],
        }
    )
    assert outcomes == {"staff-refund": "ok", "first-entry": "ok"}

    secret = desk.services.store.positions_of([account_id])[(account_id, 1)]
    assert support.call("GET", f"/proofs/{secret}").status_code == 403
    assert support.call("GET", "/proofs/999999999").status_code == 404


def test_support_resends_the_licence_key_and_a_refund_mails_the_buyer(desk: Desk) -> None:
    desk.services.settings = desk.services.settings.model_copy(update={"staff_refund_approval_limits": "USD=5000"})
    account_id = find_account_id(desk.services.store, SUBSCRIBER)
    assert account_id is not None
    merchant_uid, licence_id, key = buy(desk, account_id)
    owner = first_owner(desk)
    support = owner.invite("help@example.com", ["support"])
    marketing = owner.invite("ads@example.com", ["marketing"])
    path = f"/licences/{licence_id}/resend-licence-key"
    assert marketing.call("POST", path, json={}).status_code == 403
    assert support.call("POST", f"/licences/{UUID(int=3)}/resend-licence-key", json={}).status_code == 404
    assert support.call("POST", path, json={"reason": "lost the mail"}).status_code == 204

    [resent] = acted(desk, support)
    assert (resent.action, resent.subject, resent.reason) == ("resend-licence-key", str(licence_id), "lost the mail")
    [call] = REACTIONS[StaffActed](resent)
    assert call.name == "licences.send_licence_key_mail"
    before = outbox(desk)
    assert deliver_licence_key_mail(
        desk.services, task_id="key-1", user_licence_id=UUID(call.kwargs["user_licence_id"])
    )
    assert not deliver_licence_key_mail(desk.services, task_id="key-1", user_licence_id=licence_id), "once per task"
    [mail] = [path for path in outbox(desk) if path not in before]
    to, subject, text = read_mail(mail)
    assert to == SUBSCRIBER and key in text and "라이선스 키" in subject, "in the holder's language (ko)"

    desk.clock.advance(timedelta(minutes=1))
    support.step_up()
    sorry = {"amount": 1000, "reason": "sorry", "licenceEffect": "keep"}
    assert support.call("POST", f"/payments/{merchant_uid}/refund", json=sorry).status_code == 200
    [refund] = [
        event
        for event in desk.services.store.repository.event_store.get(Payment.id_for(merchant_uid))
        if isinstance(event, PaymentRefunded)
    ]
    [mail_call] = [call for call in REACTIONS[PaymentRefunded](refund) if call.name == "payments.send_refund_mail"]
    assert mail_call.name == "payments.send_refund_mail"
    assert (mail_call.kwargs["amount"], mail_call.kwargs["cancel_amount"]) == (1000, 1000)
    before = outbox(desk)
    kwargs = mail_call.kwargs
    assert deliver_refund_mail(
        desk.services,
        task_id="refund-1",
        payment_id=UUID(kwargs["payment_id"]),
        amount=kwargs["amount"],
        cancel_amount=kwargs["cancel_amount"],
    )
    [mail] = [path for path in outbox(desk) if path not in before]
    to, _, text = read_mail(mail)
    assert to == SUBSCRIBER and "$10.00" in text and merchant_uid in text


def test_a_one_time_code_is_accepted_once(desk: Desk) -> None:
    owner = first_owner(desk)
    # The code the owner enrolled with is spent: stepping up with it at the same moment is refused.
    assert owner.call("POST", "/step-up/totp", json={"code": owner.code()}).status_code == 401
    desk.clock.advance(timedelta(seconds=30))
    code = owner.code()
    assert owner.call("POST", "/step-up/totp", json={"code": code}).status_code == 200
    assert owner.call("POST", "/step-up/totp", json={"code": code}).status_code == 401
    assert owner.call("POST", "/sign-out").status_code == 204
    again = desk.client.post(f"{STAFF}/sign-in/totp", json={"email": "boss@example.com", "code": code})
    assert again.status_code == 401, "signed out, the same code does not sign in again within its window"
    desk.clock.advance(timedelta(seconds=30))
    fresh = desk.client.post(f"{STAFF}/sign-in/totp", json={"email": "boss@example.com", "code": owner.code()})
    assert fresh.status_code == 200, fresh.text
    desk.client.cookies.clear()


def test_a_key_seen_on_too_many_devices_is_flagged_on_the_customer_page(desk: Desk) -> None:
    account_id = find_account_id(desk.services.store, SUBSCRIBER)
    assert account_id is not None
    _, licence_id, key = buy(desk, account_id)  # one seat: a fourth distinct device within 7 days is flagged
    for device in ("d1", "d2", "d3", "d4"):
        body = {"licenseKey": key, "deviceId": device, "deviceName": device, "platform": "android"}
        assert desk.guest_call("POST", "/licenses/activate", json=body).status_code == 200
        assert desk.call("DELETE", f"/licenses/{licence_id}/devices/{device}").status_code in (200, 204)
    owner = first_owner(desk)
    desk.views_caught_up()
    page = owner.call("GET", f"/customers/{account_id}").json()
    [flag] = page["flags"]
    assert (flag["userLicenceId"], flag["licenceKey"], flag["distinctDevices"], flag["windowDays"]) == (
        str(licence_id),
        key,
        4,
        7,
    )
    assert "licence.Flagged" in [entry["topic"] for entry in page["timeline"]]


def test_the_customer_sees_each_money_back_request_waiting_or_declined_and_a_refusal_at_once(desk: Desk) -> None:
    desk.services.settings = desk.services.settings.model_copy(update={"money_back_auto_limits": "USD=3000"})
    account_id = find_account_id(desk.services.store, SUBSCRIBER)
    assert account_id is not None
    old_uid, _, _ = buy(desk, account_id)
    desk.clock.advance(timedelta(days=31))
    waiting_uid, _, _ = buy(desk, account_id)
    declined_uid, _, _ = buy(desk, account_id)
    assert desk.call("GET", "/payments/money-back").json() == []

    too_late = desk.call("POST", f"/payments/licenses/{old_uid}/money-back")
    assert (too_late.status_code, too_late.json()["errorCode"]) == (400, -340), "said at once, nothing recorded"
    for merchant_uid in (waiting_uid, declined_uid):
        assert desk.call("POST", f"/payments/licenses/{merchant_uid}/money-back").status_code == 200
    owner = first_owner(desk)
    desk.views_caught_up()
    [request] = [row for row in owner.call("GET", "/refund-requests").json() if row["merchantUid"] == declined_uid]
    declined = owner.call("POST", f"/refund-requests/{request['requestId']}/decline", json={"reason": "used 9 months"})
    assert declined.status_code == 204, declined.text
    desk.views_caught_up()

    states = {row["merchantUid"]: row for row in desk.call("GET", "/payments/money-back").json()}
    assert {uid: (row["state"], row["refused"]) for uid, row in states.items()} == {
        waiting_uid: ("waiting", None),  # $49.99 is above the $30.00 auto-approve limit: support decides
        declined_uid: ("refused", "used 9 months"),
    }
    assert states[waiting_uid]["amount"] == 4999
    desk.register("other@example.com")
    assert desk.call("GET", "/payments/money-back", as_email="other@example.com").json() == []
