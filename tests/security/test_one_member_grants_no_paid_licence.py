"""Issue 40 finding 5: one member granted paid licences alone.

As it ran: support recorded an "App Store purchase" with a made-up transaction id, and the customer had a lifetime
3-device licence; goodwill extensions stacked (3 x 366 days accepted); neither needed a step-up or a second member.

Now both need a recent step-up; an App Store record, which nothing here can verify with Apple, waits unverified for a
second member who may approve grants (never the one who asked); goodwill beyond what one member gives a licence
alone in a year (``GOODWILL_DAYS_ALONE``), counting what it was given before, waits the same way.
"""

from __future__ import annotations

from datetime import timedelta
from uuid import UUID

import pytest

from domain.accounts.auth import find_account_id
from domain.licences.licence import UserLicence
from domain.payments.app_store import recorded_purchase
from domain.staff.grants import GOODWILL_DAYS_ALONE
from tests.integration.purchases.desk import SUBSCRIBER, Desk
from tests.security.back_office import buy, first_owner

pytestmark = pytest.mark.integration

LIFETIME_3 = 133
ANNUAL_1 = 121


def test_a_made_up_app_store_purchase_grants_nothing_until_a_second_member_verifies_it(desk: Desk) -> None:
    account_id = find_account_id(desk.services.store, SUBSCRIBER)
    owner = first_owner(desk)
    support = owner.invite("help@example.com", ["support"])
    finance = owner.invite("money@example.com", ["finance"])
    made_up = {"licenceId": LIFETIME_3, "appleTransactionId": "1000000000", "countryCode": "KR", "reason": "trust me"}
    path = f"/customers/{account_id}/app-store-purchases"

    desk.clock.advance(timedelta(minutes=6))  # as the probe ran: a session signed in a while ago
    stale = support.call("POST", path, json=made_up)
    assert (stale.status_code, stale.json()["errorCode"]) == (403, 403), "a grant needs a fresh proof"
    support.step_up()
    recorded = support.call("POST", path, json=made_up)
    assert recorded.json()["state"] == "waiting", recorded.text
    assert (
        support.call(
            "POST", f"/grant-requests/{recorded.json()['requestId']}/approve", json={"reason": "ok"}
        ).status_code
        == 403
    )
    assert recorded_purchase(desk.services.store, "1000000000") is None, "the customer has no licence"

    finance.step_up()
    declined = finance.call(
        "POST", f"/grant-requests/{recorded.json()['requestId']}/decline", json={"reason": "not in App Store Connect"}
    )
    assert declined.status_code == 204, declined.text
    assert recorded_purchase(desk.services.store, "1000000000") is None
    again = support.call("POST", path, json=made_up)
    assert (again.status_code, again.json()["errorCode"]) == (400, -2), "a declined transaction stays declined"


def test_goodwill_does_not_stack_past_what_one_member_gives_alone(desk: Desk) -> None:
    account_id = find_account_id(desk.services.store, SUBSCRIBER)
    assert account_id is not None
    _, licence_id, _ = buy(desk, account_id, ANNUAL_1)
    owner = first_owner(desk)
    support = owner.invite("help@example.com", ["support"])
    finance = owner.invite("money@example.com", ["finance"])

    def expires() -> object:
        licence: UserLicence = desk.services.store.repository.get(licence_id)
        return licence.expires_at

    bought_until = expires()
    path = f"/licences/{licence_id}/extend"
    desk.clock.advance(timedelta(minutes=6))
    assert support.call("POST", path, json={"days": 366, "reason": "sorry"}).status_code == 403, "step-up first"
    support.step_up()
    stacked = [support.call("POST", path, json={"days": 366, "reason": "sorry"}).json() for _ in range(3)]
    assert [answer["state"] for answer in stacked] == ["waiting"] * 3
    assert expires() == bought_until, "three years asked, nothing given"

    alone = support.call("POST", path, json={"days": GOODWILL_DAYS_ALONE - 1, "reason": "outage"}).json()
    assert alone["state"] == "granted"
    assert support.call("POST", path, json={"days": 2, "reason": "outage"}).json()["state"] == "waiting"
    assert expires() == bought_until + timedelta(days=GOODWILL_DAYS_ALONE - 1), "one member's share, no more"

    finance.step_up()
    request_id = stacked[0]["requestId"]
    approved = finance.call("POST", f"/grant-requests/{request_id}/approve", json={"reason": "the outage was long"})
    assert approved.json()["state"] == "granted", approved.text
    assert expires() == bought_until + timedelta(days=GOODWILL_DAYS_ALONE - 1 + 366)
    waiting = support.call("GET", "/grant-requests", params={"state": "waiting"}).json()
    assert len(waiting) == 3 and request_id not in [row["requestId"] for row in waiting]
    assert UUID(waiting[0]["accountId"]) == account_id
