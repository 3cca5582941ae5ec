"""Where a subscription stands, as the subscription and upgrade routes answer it."""

from __future__ import annotations

from datetime import datetime
from typing import Self
from uuid import UUID

from pydantic import Field

from api.schemas import CamelModel
from domain.catalogue.versions import load_versions
from domain.licences.actions import Action
from domain.licences.allowed import SubscriptionFacts, subscriber_actions
from domain.licences.licence import LicenceState, UserLicence
from domain.store import Storefront
from domain.subscriptions.subscription import Subscription, SubscriptionStatus


class SubscriptionState(CamelModel):
    """Where a subscription stands (what the licence detail shows), and what the subscriber may do now."""

    subscription_id: UUID
    user_license_id: UUID
    status: SubscriptionStatus
    is_scheduled: bool
    next_payment_at: datetime | None
    paid_until: datetime
    price: int
    next_renewal_price: int | None = Field(
        default=None,
        description="what the next renewal charges, when the subscription renews: the one price the reminder mail "
        "states and the renewal charges (a price change in force by then, less an accepted retention offer)",
    )
    currency: str
    license_name: str
    card_name: str | None
    card_number: str | None
    allowed_actions: list[Action] = Field(description="what the subscriber may do now, in the order to offer it")
    license_key: str | None = None
    resume_complete: bool = False
    email: str | None = None
    account_created: bool = False
    charged_amount: int | None = Field(
        default=None,
        description="what this call charged, when it charged (an upgrade: the new plan's first period less the "
        "credit); `price` is what each renewal costs",
    )

    @classmethod
    def load(cls, store: Storefront, subscription_id: UUID, now: datetime, licence_key: str | None = None) -> Self:
        """The subscription as it stands now (``licence_key`` shown once, right after subscribing)."""
        subscription: Subscription = store.repository.get(subscription_id)
        licence: UserLicence = store.repository.get(subscription.user_licence_id)
        # A licence refunded (revoked) renews no more, even before the renewal pass has ended its subscription.
        renewing = licence.state is LicenceState.ACTIVE
        renewal = subscription.next_renewal(load_versions(store)) if renewing else None
        return cls(
            subscription_id=subscription.id,
            user_license_id=subscription.user_licence_id,
            status=subscription.status if renewing else SubscriptionStatus.ENDED,
            is_scheduled=subscription.is_scheduled and renewing,
            next_payment_at=subscription.next_charge_at if renewing else None,
            paid_until=subscription.paid_until,
            price=subscription.amount,
            next_renewal_price=renewal.amount if renewal is not None and subscription.renews_at else None,
            currency=subscription.currency.value,
            license_name=subscription.name,
            card_name=subscription.card_name,
            card_number=subscription.card_number,
            allowed_actions=subscriber_actions(SubscriptionFacts.of(subscription), licence.state.value, now),
            license_key=licence_key,
        )
