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
from domain.subscriptions.mails import card_text
from domain.subscriptions.price_rule import Answer, PriceRiseAsk
from domain.subscriptions.subscription import Subscription, SubscriptionStatus
from events.values import Language


class PriceRiseNotice(CamelModel):
    """A higher price the subscriber is asked to consent to (docs/catalogue.md): the licence page shows these facts
    with an "agree" and a "stop auto-renewal" button, neither chosen in advance. Without an agreement by
    ``changesAt`` the higher price is never charged: auto-renewal stops at the end of the paid period."""

    kind: str = Field(description="`price-rise`, or `free-to-paid` (a free period turning into a paid one)")
    catalogue_version: int
    changes_at: datetime = Field(description="the renewal that would first charge the new price")
    previous_price: int
    new_price: int
    currency: str
    payment_method: str = Field(description="the card as the store shows it: its name and masked number")
    answer: Answer = Field(description="pending, agreed, declined or lapsed (auto-renewal stopped without an answer)")
    answered_at: datetime | None
    without_answer: str = Field(
        description="what happens without an agreement by the change: `auto-renewal-stops` (at the paid period's end)"
    )

    @classmethod
    def of(cls, subscription: Subscription, ask: PriceRiseAsk) -> Self:
        """The notice of ``ask`` as the subscription stands now."""
        return cls(
            kind=ask.kind.value,
            catalogue_version=ask.catalogue_version,
            changes_at=subscription.price_rise_changes_at(ask),
            previous_price=ask.previous_amount,
            new_price=ask.amount,
            currency=ask.currency,
            payment_method=card_text(subscription.card_name, subscription.card_number, Language.EN),
            answer=ask.answer,
            answered_at=ask.answered_at,
            without_answer="auto-renewal-stops",
        )


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
    price_rise: PriceRiseNotice | None = Field(
        default=None, description="a higher price asked for since the price last moved (null when none)"
    )
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
            # A renewal at a higher price not agreed to charges nothing: no price is promised for it.
            next_renewal_price=(
                renewal.amount if renewal is not None and subscription.renews_at and renewal.awaiting is None else None
            ),
            currency=subscription.currency.value,
            price_rise=PriceRiseNotice.of(subscription, ask) if (ask := subscription.open_price_rise) else None,
            license_name=subscription.name,
            card_name=subscription.card_name,
            card_number=subscription.card_number,
            allowed_actions=subscriber_actions(SubscriptionFacts.of(subscription), licence.state.value, now),
            license_key=licence_key,
        )
