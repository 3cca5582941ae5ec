"""What a customer may do with a licence is the domain's one answer, whatever page asks.

A subscription is walked through every state of its state machine (renewing, cancelled within and after the
paid period, past due, ended, re-subscribed, replaced by a lifetime licence); at each step the licence list,
the licence detail and the subscription's state answer exactly what ``domain.licences.allowed`` says for the
aggregates as they stand. A second copy of the rule anywhere in the API would make one of them differ.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from uuid import UUID

import pytest

from domain.licences.allowed import SubscriptionFacts, allowed_actions, subscriber_actions
from domain.licences.licence import UserLicence
from domain.subscriptions.subscription import Subscription
from tests.integration.purchases.desk import GOOD_CARD, SOON_BROKE, Desk

pytestmark = pytest.mark.integration

MONTHLY, LIFETIME = 111, 131


def _api_and_domain_agree(desk: Desk, licence_id: str) -> dict[str, Any]:
    """Each page's allowedActions equals the domain's; returns the subscription's state."""
    desk.views_caught_up()
    state: dict[str, Any] = desk.call("GET", f"/payments/licenses/subscribe/{licence_id}").json()
    services = desk.services
    subscription: Subscription = services.store.repository.get(UUID(state["subscriptionId"]))
    licence: UserLicence = services.store.repository.get(UUID(licence_id))
    now = services.clock.now()
    facts = SubscriptionFacts.of(subscription)
    expected = [action.value for action in allowed_actions(licence.facts, facts, services.catalogue, now)]
    listed = next(item for item in desk.call("GET", "/licenses/mine").json() if item["id"] == licence_id)
    detail = desk.call("GET", f"/licenses/mine/{licence_id}").json()
    assert listed["allowedActions"] == expected
    assert detail["allowedActions"] == expected
    assert detail["isDisableUpgrade"] is False
    own = [action.value for action in subscriber_actions(facts, licence.state.value, now)]
    assert state["allowedActions"] == own
    return state


def _subscribe(desk: Desk, licence_id: int) -> str:
    started = desk.call(
        "POST",
        "/payments/licenses/subscribe/new/new-billingkey",
        json={"licenseId": licence_id, "countryCode": "KR", "card": GOOD_CARD},
    )
    assert started.status_code == 200, started.text
    return str(started.json()["userLicenseId"])


def test_every_state_of_a_subscription_offers_what_the_domain_allows(desk: Desk) -> None:
    licence_id = _subscribe(desk, MONTHLY)
    assert _api_and_domain_agree(desk, licence_id)["status"] == "active"

    desk.call("DELETE", f"/payments/licenses/subscribe/{licence_id}")
    assert _api_and_domain_agree(desk, licence_id)["status"] == "cancelled"  # within the paid period
    desk.clock.advance(timedelta(days=31))
    after = _api_and_domain_agree(desk, licence_id)  # the paid period ran out; the renewal pass has not looked
    assert (after["status"], after["allowedActions"]) == ("cancelled", ["resubscribe"])
    desk.beat()
    assert _api_and_domain_agree(desk, licence_id)["status"] == "ended"

    again = desk.call("POST", f"/payments/licenses/re-subscribe/{licence_id}", json={})
    assert again.status_code == 200, again.text
    assert _api_and_domain_agree(desk, licence_id)["status"] == "active"  # re-subscribed

    broke = desk.call("PUT", "/billingkeys", json=SOON_BROKE).json()
    desk.call(
        "PUT", f"/payments/licenses/subscribe/{licence_id}/billingkey", json={"billingkeyId": broke["billingkeyId"]}
    )
    desk.clock.advance(timedelta(days=30))
    assert len(desk.beat()) == 1
    assert _api_and_domain_agree(desk, licence_id)["status"] == "past_due"
    for days in (1, 2, 4):
        desk.clock.advance(timedelta(days=days))
        desk.beat()
    assert _api_and_domain_agree(desk, licence_id)["status"] == "ended"  # dunning gave up


def test_a_subscription_replaced_by_a_lifetime_licence_offers_what_the_domain_allows(desk: Desk) -> None:
    licence_id = _subscribe(desk, MONTHLY)
    desk.clock.advance(timedelta(days=15))
    plans = desk.call("GET", f"/purchasable-licenses/upgrade/licenses/{licence_id}").json()
    lifetime = next(plan for plan in plans["licenses"] if plan["id"] == LIFETIME)
    upgraded = desk.call(
        "POST",
        f"/payments/licenses/{licence_id}/subscribe/upgrade",
        json={"licenseId": LIFETIME, "requestPrice": lifetime["requestPrice"]},
    )
    assert upgraded.status_code == 200, upgraded.text
    state = _api_and_domain_agree(desk, licence_id)
    assert (state["status"], state["allowedActions"]) == ("ended", [])
