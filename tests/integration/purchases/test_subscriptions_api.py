"""Subscriptions through HTTP and the beat's renewal pass, against the sandbox, across several periods."""

from __future__ import annotations

import email
from datetime import timedelta
from decimal import Decimal

import pytest

from domain.coupons.admin import open_group
from domain.coupons.group import UNLIMITED_USES, ConstraintType, GroupRules, GroupType
from tests.integration.purchases.desk import GOOD_CARD, SOON_BROKE, Desk
from workers.tasks.subscriptions import record_due_reminders

pytestmark = pytest.mark.integration


def test_a_monthly_subscription_renews_once_per_period_for_four_periods(desk: Desk) -> None:
    started = desk.call(
        "POST",
        "/payments/licenses/subscribe/new/new-billingkey",
        json={"licenseId": 111, "countryCode": "KR", "card": GOOD_CARD},
    )
    assert started.status_code == 200, started.text
    state = started.json()
    assert (state["status"], state["isScheduled"], state["price"], state["currency"]) == ("active", True, 2900, "KRW")
    licence_id = state["userLicenseId"]
    first_end = desk.clock() + timedelta(days=30)
    detail = desk.call("GET", f"/licenses/mine/{licence_id}").json()
    assert detail["isScheduled"] is True
    assert detail["scheduledPayment"]["price"] == 2900

    assert desk.beat() == []  # nothing is due yet
    for period in range(2, 6):
        desk.clock.advance(timedelta(days=30))
        charged = desk.beat()
        assert len(charged) == 1 and charged[0].endswith(f"-{period}-1")
        assert desk.beat() == []  # the same minute again charges nobody
    detail = desk.call("GET", f"/licenses/mine/{licence_id}").json()
    assert detail["expiresAt"].startswith((first_end + timedelta(days=120)).isoformat()[:19])
    paid = [record for record in desk.history() if record["status"] == "paid"]
    assert len(paid) == 5
    assert len({record["merchantUid"] for record in paid}) == 5


def test_cancelled_auto_renewal_runs_to_the_paid_date_and_is_never_charged_then_resumes(desk: Desk) -> None:
    state = desk.call(
        "POST",
        "/payments/licenses/subscribe/new/new-billingkey",
        json={"licenseId": 121, "countryCode": "KR", "card": GOOD_CARD},
    ).json()
    licence_id = state["userLicenseId"]
    cancelled = desk.call("DELETE", f"/payments/licenses/subscribe/{licence_id}").json()
    assert (cancelled["status"], cancelled["isScheduled"], cancelled["nextPaymentAt"]) == ("cancelled", False, None)
    assert desk.call("GET", f"/licenses/mine/{licence_id}").json()["isScheduled"] is False

    desk.clock.advance(timedelta(days=100))
    resumed = desk.call("POST", f"/payments/licenses/re-subscribe/{licence_id}", json={}).json()
    assert (resumed["status"], resumed["resumeComplete"]) == ("active", True)
    desk.call("DELETE", f"/payments/licenses/subscribe/{licence_id}")
    desk.clock.advance(timedelta(days=300))
    assert desk.beat() == []  # ran out: ended, not charged
    ended = desk.call("GET", f"/payments/licenses/subscribe/{licence_id}").json()
    assert ended["status"] == "ended"

    again = desk.call("POST", f"/payments/licenses/re-subscribe/{licence_id}", json={}).json()
    assert (again["status"], again["resumeComplete"]) == ("active", True)
    assert len([r for r in desk.history() if r["status"] == "paid"]) == 2


def test_a_card_that_starts_failing_goes_through_dunning_and_the_subscription_ends(desk: Desk) -> None:
    state = desk.call(
        "POST",
        "/payments/licenses/subscribe/new/new-billingkey",
        json={"licenseId": 111, "countryCode": "KR", "card": GOOD_CARD},
    ).json()
    licence_id = state["userLicenseId"]
    broke = desk.call("PUT", "/billingkeys", json=SOON_BROKE).json()
    changed = desk.call(
        "PUT", f"/payments/licenses/subscribe/{licence_id}/billingkey", json={"billingkeyId": broke["billingkeyId"]}
    ).json()
    assert changed["cardNumber"] == broke["cardNumber"]

    desk.clock.advance(timedelta(days=30))
    assert len(desk.beat()) == 1  # due: fails
    assert desk.call("GET", f"/payments/licenses/subscribe/{licence_id}").json()["status"] == "past_due"
    for days in (1, 2, 4):  # retries at +1, +3 and +7 days
        assert desk.beat() == []
        desk.clock.advance(timedelta(days=days))
        assert len(desk.beat()) == 1
    final = desk.call("GET", f"/payments/licenses/subscribe/{licence_id}").json()
    assert (final["status"], final["isScheduled"]) == ("ended", False)
    failed = [r for r in desk.history() if r["status"] == "failed"]
    assert len(failed) == 4
    assert all(r["failReason"] == "insufficient funds" for r in failed)
    subjects = sorted(desk.deliver_mails())
    assert subjects == ["[유니콘] 구독이 종료되었습니다"] + ["[유니콘] 정기 결제에 실패했습니다"] * 3
    assert sorted(desk.deliver_mails()) == subjects  # the reactor delivering again sends nothing new


def test_a_yearly_subscriber_is_told_a_week_before_the_renewal_once(desk: Desk) -> None:
    state = desk.call(
        "POST",
        "/payments/licenses/subscribe/new/new-billingkey",
        json={"licenseId": 121, "countryCode": "KR", "card": GOOD_CARD},
    ).json()
    desk.views_caught_up()
    desk.clock.advance(timedelta(days=350))
    assert record_due_reminders(desk.services) == 0
    desk.clock.advance(timedelta(days=10))
    assert record_due_reminders(desk.services) == 1
    assert record_due_reminders(desk.services) == 0
    [subject] = desk.deliver_mails()
    assert subject.startswith("[유니콘] 구독 자동 갱신 안내")
    [mail] = list(desk.services.settings.outbox_dir.glob("*.eml"))
    text = email.message_from_bytes(mail.read_bytes()).get_payload(decode=True).decode()
    assert "24,360원" in text
    assert state["cardNumber"] in text, "the card as the store shows it"
    assert f"/ko/license/{state['userLicenseId']}?subscription=stop" in text


def test_billing_key_errors_answer_with_the_spec_codes(desk: Desk) -> None:
    assert desk.call("PUT", "/billingkeys", json={**GOOD_CARD, "cardNumber": "4111-1111"}).json()["errorCode"] == -305
    assert desk.call("PUT", "/billingkeys", json={**GOOD_CARD, "expiryMonth": 13}).json()["errorCode"] == -305
    assert desk.call("PUT", "/billingkeys", json={**GOOD_CARD, "birth": "12345"}).json()["errorCode"] == -305
    assert (
        desk.call("PUT", "/billingkeys", json={**GOOD_CARD, "cardNumber": "4111111111110002"}).json()["errorCode"]
        == -303
    )
    first = desk.call("PUT", "/billingkeys", json=GOOD_CARD)
    assert first.status_code == 200
    assert "1111" in first.json()["cardNumber"] and "411111111111" not in first.json()["cardNumber"]
    assert desk.call("PUT", "/billingkeys", json=GOOD_CARD).json()["errorCode"] == -308
    wallet = desk.call("GET", "/billingkeys").json()
    assert wallet["defaultBillingkeyId"] == first.json()["billingkeyId"]
    assert desk.call("GET", "/billingkeys/customerUid/nope").status_code == 404
    no_key = desk.call("POST", "/payments/licenses/subscribe/new", json={"licenseId": 131, "countryCode": "KR"})
    assert no_key.json()["errorCode"] == -302  # a lifetime licence is not a subscription


def test_each_charge_of_an_annual_subscription_records_the_discount_it_was_charged_with(desk: Desk) -> None:
    listed = desk.guest_call("GET", "/purchasable-licenses/new", params={"licenseIds": "121"}).json()
    korea = next(price for price in listed[0]["prices"] if price["countryCode"] == "KR")
    state = desk.call(
        "POST",
        "/payments/licenses/subscribe/new/new-billingkey",
        json={"licenseId": 121, "countryCode": "KR", "card": GOOD_CARD},
    ).json()
    assert state["price"] == korea["requestPrice"] == 24360  # what was shown is what is charged
    desk.clock.advance(timedelta(days=365))
    assert len(desk.beat()) == 1
    records = desk.history()
    assert sorted(record["purchaseType"] for record in records) == ["renewal", "subscription"]
    for record in records:
        assert (record["status"], record["originalAmount"], record["amount"]) == ("paid", 34800, 24360)
        assert record["discountFactors"] == [{"type": "base", "factor": "0.3"}]
        assert record["userLicenseId"] == state["userLicenseId"]
    detail = desk.call("GET", f"/licenses/mine/{state['userLicenseId']}").json()
    assert len(detail["payments"]) == 2  # the renewal shows on the licence it renewed


def test_a_coupon_discounts_the_first_month_of_a_subscription_and_renewals_charge_the_plans_price(desk: Desk) -> None:
    spec_test_group = GroupRules(
        name="test",
        group_type=GroupType.PUBLIC,
        constraint_type=ConstraintType.ACCOUNT,
        factor=Decimal("0.3"),
        available_duration=30,
        sub_issued_count=UNLIMITED_USES,
        currency="KRW",
    )
    open_group(desk.services.store, desk.clock(), spec_test_group, code="FIRSTMONTH")
    body = {"licenseId": 111, "countryCode": "KR", "card": GOOD_CARD, "code": "FIRSTMONTH"}
    annual = desk.call("GET", "/payments/coupons", params={"code": "FIRSTMONTH", "licenseId": 121})
    assert annual.json()["errorCode"] == -604, "the group discounts monthly licences only"
    started = desk.call("POST", "/payments/licenses/subscribe/new/new-billingkey", json=body)
    assert started.status_code == 200, started.text
    assert started.json()["price"] == 2900, "what it renews at"

    desk.clock.advance(timedelta(days=30))
    assert len(desk.beat()) == 1
    charges = sorted((record["merchantUid"], record) for record in desk.history() if record["status"] == "paid")
    first, renewal = (record for _, record in charges)
    assert (first["amount"], first["couponCode"]) == (2030, "FIRSTMONTH"), "2,900 won less 30%"
    assert (renewal["amount"], renewal["couponCode"]) == (2900, None)
    again = desk.call("POST", "/payments/licenses/subscribe/new", json={**body, "card": None})
    assert again.json()["errorCode"] == -613, "once per account"


def test_a_member_starts_a_second_subscription_with_the_card_on_file_without_typing_it_again(desk: Desk) -> None:
    first = desk.call(
        "POST", "/payments/licenses/subscribe/new/new-billingkey",
        json={"licenseId": 111, "countryCode": "KR", "card": GOOD_CARD},
    )  # fmt: skip
    assert first.status_code == 200, first.text
    retyped = desk.call(
        "POST", "/payments/licenses/subscribe/new/new-billingkey",
        json={"licenseId": 121, "countryCode": "KR", "card": GOOD_CARD},
    )  # fmt: skip
    assert (retyped.status_code, retyped.json()["errorCode"]) == (409, -308), "the card is on file already"

    wallet = desk.call("GET", "/billingkeys").json()
    [saved] = wallet["billingkeys"]
    assert saved["isDefault"] and wallet["defaultBillingkeyId"] == saved["billingkeyId"]
    second = desk.call(
        "POST", "/payments/licenses/subscribe/new",
        json={"licenseId": 121, "countryCode": "KR", "billingkeyId": saved["billingkeyId"]},
    )  # fmt: skip
    assert second.status_code == 200, second.text
    state = second.json()
    assert (state["status"], state["isScheduled"], state["price"]) == ("active", True, 24360)
    assert state["userLicenseId"] != first.json()["userLicenseId"]
    assert state["cardNumber"] == saved["cardNumber"], "the saved card pays and renews it"
    assert len(desk.call("GET", "/billingkeys").json()["billingkeys"]) == 1, "no second key for the same card"

    desk.register("someone-else@example.com")
    theirs = desk.call(
        "POST", "/payments/licenses/subscribe/new", as_email="someone-else@example.com",
        json={"licenseId": 121, "countryCode": "KR", "billingkeyId": saved["billingkeyId"]},
    )  # fmt: skip
    assert theirs.status_code == 404, "a key charges only its owner's subscriptions"
    none = desk.call(
        "POST", "/payments/licenses/subscribe/new", as_email="someone-else@example.com",
        json={"licenseId": 121, "countryCode": "KR"},
    )  # fmt: skip
    assert none.json()["errorCode"] == -304
