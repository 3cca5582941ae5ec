"""The honest exit over HTTP, on both stores, against the sandbox: the question and the one offer, a subscriber who
declines it and leaves (the answers in the log, on support's timeline and in finance's counts, and a mail that says
until when the licence works), and one who takes it (the next renewal is charged the coupon's price, the one after
it the plan's again)."""

from __future__ import annotations

import email
from datetime import timedelta

import pytest

from tests.integration.purchases.desk import GOOD_CARD, SUBSCRIBER, Desk
from tests.integration.purchases.test_back_office_support import first_owner

pytestmark = pytest.mark.integration

LEAVER = "leaver@example.com"


def _subscribe(desk: Desk, as_email: str) -> str:
    started = desk.call(
        "POST",
        "/payments/licenses/subscribe/new/new-billingkey",
        json={"licenseId": 111, "countryCode": "KR", "card": GOOD_CARD},
        as_email=as_email,
    )
    assert started.status_code == 200, started.text
    return str(started.json()["userLicenseId"])


def test_one_leaves_declining_the_offer_another_stays_and_the_next_renewal_charges_the_coupon_price(desk: Desk) -> None:
    desk.register(LEAVER)
    leaving = _subscribe(desk, LEAVER)
    staying = _subscribe(desk, SUBSCRIBER)

    asked = desk.call("GET", f"/payments/licenses/subscribe/{leaving}/exit", as_email=LEAVER).json()
    assert "too-expensive" in asked["reasons"] and asked["commentLimit"] == 1000
    assert (asked["offer"]["percentOff"], asked["offer"]["price"], asked["offer"]["offeredPrice"]) == (30, 2900, 2030)
    assert desk.call("GET", f"/payments/licenses/subscribe/{leaving}/exit").status_code == 404, "not the caller's"
    bad = desk.call(
        "POST", f"/payments/licenses/subscribe/{leaving}/exit", json={"reasons": ["bored"]}, as_email=LEAVER
    )
    assert bad.json()["errorCode"] == -2

    left = desk.call(
        "POST",
        f"/payments/licenses/subscribe/{leaving}/exit",
        json={"reasons": ["too-expensive", "not-using"], "comment": "Too dear for me", "offerDeclined": True},
        as_email=LEAVER,
    )
    assert left.status_code == 200, left.text
    assert (left.json()["status"], left.json()["isScheduled"]) == ("cancelled", False)
    assert desk.call("GET", f"/payments/licenses/subscribe/{leaving}/exit", as_email=LEAVER).json()["offer"] is None
    again = desk.call("POST", f"/payments/licenses/subscribe/{leaving}/exit/offer", json={}, as_email=LEAVER)
    assert again.json()["errorCode"] == -612, "the one offer was declined"

    kept = desk.call(
        "POST", f"/payments/licenses/subscribe/{staying}/exit/offer", json={"reasons": ["too-expensive"], "comment": ""}
    )
    assert kept.status_code == 200, kept.text
    assert (kept.json()["status"], kept.json()["price"], kept.json()["nextRenewalPrice"]) == ("active", 2900, 2030)

    [subject] = [subject for subject in desk.deliver_mails() if "해지" in subject]
    assert subject == "[유니콘] 자동 갱신이 해지되었습니다"
    [mail] = [
        email.message_from_bytes(path.read_bytes())
        for path in desk.services.settings.outbox_dir.glob("*.eml")
        if LEAVER in path.read_text(errors="replace")
    ]
    text = mail.get_payload(decode=True).decode()
    assert "까지 사용하실 수 있습니다" in text and f"/ko/license/{leaving}?subscription=resume" in text

    desk.clock.advance(timedelta(days=30, seconds=1))
    assert len(desk.beat()) == 1, "the leaver is not charged"
    desk.clock.advance(timedelta(days=30))
    assert len(desk.beat()) == 1
    renewals = sorted(
        (record for record in desk.history() if record["purchaseType"] == "renewal"), key=lambda r: r["merchantUid"]
    )
    assert [record["amount"] for record in renewals] == [2030, 2900]
    assert {"type": "coupon", "factor": "0.3"} in renewals[0]["discountFactors"]

    owner = first_owner(desk)
    reasons = owner.call("GET", "/cancellation-reasons")
    assert reasons.status_code == 200, reasons.text
    body = reasons.json()
    assert (body["cancelled"], body["stayed"], body["offersDeclined"]) == (1, 1, 1)
    counts = {row["reason"]: (row["cancelled"], row["stayed"]) for row in body["reasons"]}
    assert counts["too-expensive"] == (1, 1) and counts["not-using"] == (1, 0)
    assert [item["comment"] for item in body["comments"]] == ["Too dear for me"]
    support = owner.invite("helper@example.com", ["support"])
    assert support.call("GET", "/cancellation-reasons").status_code == 403, "finance reads the ledger, not support"

    found = owner.call("GET", "/customers", params={"q": LEAVER}).json()
    page = owner.call("GET", f"/customers/{found[0]['accountId']}").json()
    [cancelled] = [entry for entry in page["timeline"] if entry["topic"] == "subscription.AutoRenewalCancelled"]
    assert cancelled["fields"]["reasons"] == ["too-expensive", "not-using"]
    assert cancelled["fields"]["comment"] == "Too dear for me"
