"""Consent before a price rise over HTTP, on both stores, against the sandbox with the test clock (docs/catalogue.md;
Korea's E-Commerce Act Art. 13(6)): the owner schedules a rise of the monthly plan in the back office; three
subscribers (Korean, Japanese, Korean) are asked by mail, in their language, with the date, both prices and the card,
and see the notice on their licence page (following the link agrees to nothing); one agrees and pays the new price from
the change, one does nothing, is reminded once, is never charged it and is told that auto-renewal stopped, and one
declines, which stops auto-renewal. Staff see who answered what."""

from __future__ import annotations

import email
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

import pytest

from api.staff_session import SESSION_COOKIE
from application.price_rises import ask_every_price_rise, remind_price_rises
from tests.integration.purchases.desk import GOOD_CARD, SUBSCRIBER, Desk, mail_subject
from tests.integration.purchases.test_back_office_support import STAFF, Member, first_owner
from tests.staff_codes import sign_in_with_code
from tests.support import confirm_address
from workers.reactions import REACTIONS
from workers.tasks.price_rises import deliver_price_rise_mail

pytestmark = pytest.mark.integration

QUIET = "quiet@example.com"  # Japanese; does nothing
LEAVER = "leaver@example.com"
MONTHLY = 111
DAY = timedelta(days=1)


def _subscribe(desk: Desk, as_email: str) -> str:
    started = desk.call(
        "POST",
        "/payments/licenses/subscribe/new/new-billingkey",
        json={"licenseId": MONTHLY, "countryCode": "KR", "card": GOOD_CARD},
        as_email=as_email,
    )
    assert started.status_code == 200, started.text
    return str(started.json()["userLicenseId"])


def _state(desk: Desk, licence: str, as_email: str) -> dict[str, Any]:
    desk.views_caught_up()
    answer = desk.call("GET", f"/payments/licenses/subscribe/{licence}", as_email=as_email)
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


def _deliver_price_rise_mails(desk: Desk) -> dict[str, list[str]]:
    """What the reactor and a worker do with the price-rise mails: every such mail sent so far, as text by address."""
    store = desk.services.store
    for notification in store.recorder.select_notifications(start=1, limit=10_000):
        event = store.mapper.to_domain_event(notification)
        reaction = REACTIONS.get(type(event))
        for index, call in enumerate(reaction(event) if reaction else []):
            if call.name == "subscriptions.send_price_rise_mail":
                kwargs = dict(call.kwargs)
                deliver_price_rise_mail(
                    desk.services,
                    task_id=f"Storefront-{notification.id}-{index}",
                    subscription_id=UUID(kwargs.pop("subscription_id")),
                    changes_at=datetime.fromisoformat(kwargs.pop("changes_at")),
                    **kwargs,
                )
    found: dict[str, list[str]] = {}
    for path in sorted(desk.services.settings.outbox_dir.glob("*.eml")):
        message = email.message_from_bytes(path.read_bytes())
        text = message.get_payload(decode=True).decode()  # type: ignore[union-attr]
        found.setdefault(str(message["To"]), []).append(f"{mail_subject(path)}\n{text}")
    return found


def _sign_in_again(desk: Desk, owner: Member) -> None:
    """The owner's session idled out while days passed: they sign in again with their code app."""
    again = sign_in_with_code(desk.client, STAFF, "boss@example.com", owner.secret, desk.services.clock.now())
    assert again.status_code == 200, again.text
    owner.session, owner.csrf = desk.client.cookies[SESSION_COOKIE], again.json()["csrf"]
    desk.client.cookies.clear()


def _paid(desk: Desk, address: str) -> list[int]:
    """What someone was charged, oldest first."""
    paid = [record for record in desk.history_of(address) if record["status"] == "paid"]
    return [record["amount"] for record in sorted(paid, key=lambda record: int(record["merchantUid"].split("-")[2]))]


def _to_day(desk: Desk, start: Any, day: int) -> None:
    desk.clock.advance(start + day * DAY - desk.services.clock.now())


def test_only_an_agreement_raises_the_price_and_silence_stops_auto_renewal(desk: Desk) -> None:
    desk.register(LEAVER)
    register = desk.client.post(
        "/web/unicornpro/v1/accounts", json={"email": QUIET, "pw": "abcd1234", "language": "ja"}
    )
    assert register.status_code == 200, register.text
    confirm_address(desk.client, desk.services, str(register.json()["userId"]), QUIET)
    start = desk.services.clock.now()
    agreeing, quiet, leaving = (_subscribe(desk, who) for who in (SUBSCRIBER, QUIET, LEAVER))
    owner = first_owner(desk)

    # Day 10: the owner raises the monthly plan to 3,500 won from now; the reactor runs the request sweep.
    _to_day(desk, start, 10)
    _sign_in_again(desk, owner)
    versions = owner.call("GET", "/catalogue").json()
    licences = versions["versions"][0]["licences"]
    for licence in licences:
        for price in licence["prices"] if licence["id"] == MONTHLY else ():
            price["price"] = 3500 if price["countryCode"] == "KR" else price["price"]
    scheduled = owner.call(
        "POST",
        "/catalogue/versions",
        json={"licences": licences, "effectiveAt": desk.services.clock.now().isoformat(), "reason": "costs"},
    )
    assert scheduled.status_code == 201, scheduled.text
    desk.views_caught_up()
    assert ask_every_price_rise(desk.services.store, desk.services.views, desk.services.clock) == 3

    notice = _state(desk, agreeing, SUBSCRIBER)
    rise = notice["priceRise"]
    assert (rise["previousPrice"], rise["newPrice"], rise["answer"], rise["withoutAnswer"]) == (
        2900,
        3500,
        "pending",
        "auto-renewal-stops",
    )
    assert datetime.fromisoformat(rise["changesAt"]) == start + 60 * DAY
    assert "1111" in rise["paymentMethod"] and "4111111111111111" not in rise["paymentMethod"]
    assert notice["nextRenewalPrice"] == 2900, "the renewal on day 30 comes before the change"

    mails = _deliver_price_rise_mails(desk)
    [korean] = mails[SUBSCRIBER]
    assert "[유니콘] 구독 가격 인상 동의 요청" in korean and "2,900원" in korean and "3,500원" in korean
    assert f"/ko/license/{agreeing}?subscription=price" in korean and "1111" in korean
    [japanese] = mails[QUIET]
    assert "同意のお願い" in japanese and f"/ja/license/{quiet}?subscription=price" in japanese
    assert _state(desk, quiet, QUIET)["priceRise"]["answer"] == "pending", "reading the page agrees to nothing"

    agreed = desk.call("POST", f"/payments/licenses/subscribe/{agreeing}/price-rise/agree")
    assert agreed.status_code == 200 and agreed.json()["priceRise"]["answer"] == "agreed", agreed.text
    declined = desk.call("POST", f"/payments/licenses/subscribe/{leaving}/price-rise/decline", as_email=LEAVER)
    assert declined.status_code == 200, declined.text
    assert (declined.json()["status"], declined.json()["priceRise"]["answer"]) == ("cancelled", "declined")
    stranger = desk.call("POST", f"/payments/licenses/subscribe/{quiet}/price-rise/agree", as_email=LEAVER)
    assert stranger.status_code == 404, "only the subscriber answers"

    _to_day(desk, start, 30)
    desk.beat()
    # Day 53, a week before the change: the one reminder, to the one who has not answered.
    _to_day(desk, start, 53)
    desk.views_caught_up()
    assert remind_price_rises(desk.services.store, desk.services.views, desk.services.clock) == 1
    desk.views_caught_up()
    assert remind_price_rises(desk.services.store, desk.services.views, desk.services.clock) == 0
    assert any("【再送】" in text for text in _deliver_price_rise_mails(desk)[QUIET])

    _to_day(desk, start, 60)
    desk.beat()
    assert _paid(desk, SUBSCRIBER) == [2900, 2900, 3500]
    assert _paid(desk, QUIET) == [2900, 2900]
    stopped = _state(desk, quiet, QUIET)
    assert (stopped["status"], stopped["isScheduled"], stopped["priceRise"]["answer"]) == ("ended", False, "lapsed")
    lapsed = [text for text in _deliver_price_rise_mails(desk)[QUIET] if "自動更新を停止しました" in text]
    assert len(lapsed) == 1 and "3,500" in lapsed[0]
    assert _paid(desk, LEAVER) == [2900], "declining on day 10 stopped auto-renewal at day 30"

    # Staff (support and marketing read customers) see who agreed, declined and did not answer.
    _sign_in_again(desk, owner)
    [summary] = owner.call("GET", "/price-rises").json()
    assert (summary["catalogueVersion"], summary["asked"], summary["agreed"], summary["declined"]) == (2, 3, 1, 1)
    assert (summary["pending"], summary["lapsed"]) == (0, 1)
    answers = owner.call("GET", "/price-rises/2").json()["answers"]
    assert sorted(item["answer"] for item in answers) == ["agreed", "declined", "lapsed"]
    assert all(item["newPrice"] == 3500 for item in answers)
