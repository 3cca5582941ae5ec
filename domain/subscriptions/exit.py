"""The honest exit: stopping auto-renewal asks why (optional) and may show one retention offer, once.

- **The question.** A few reasons (``EXIT_REASONS``, any of them) and free text (``COMMENT_LIMIT`` characters),
  both optional; they are recorded in the cancellation (``subscription.AutoRenewalCancelled``), or in the
  acceptance of the offer, so support's timeline and finance's reasons page read them from the log.
- **The one offer.** Shown with the question, never as a second "are you sure": declining it is stopping
  auto-renewal. Only a renewing (active) subscription is offered, and only once: once taken or declined it is
  never shown to that subscription again (``Subscription.retention_offer_open``). Taking it issues a real coupon
  code of the year's private retention coupon group (``RETENTION_FACTOR`` off, one use, once per user licence);
  the next period's charge carries its factor (``Subscription.renewal_quote``) and redeems the code with the
  payment. The factor is ``RETENTION_COUPON_FACTOR`` in settings (0 turns the offer off).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate

from domain.business_time import BUSINESS_TIME
from domain.catalogue.versions import CatalogueVersions, load_versions
from domain.clock import Clock
from domain.coupons.codes import CouponCode, new_private_code
from domain.coupons.group import ConstraintType, CouponGroup, GroupRules, GroupType
from domain.errors import DomainError, ErrorCode
from domain.store import Storefront
from domain.subscriptions.charging import load_subscription
from domain.subscriptions.commands import Witness, cancel_auto_renewal
from domain.subscriptions.subscription import Subscription
from events.concurrency import retry_on_conflict
from events.values import Currency

# Why a subscriber leaves: the codes the web offers (ko/en/ja labels there) and the log records.
EXIT_REASONS = ("too-expensive", "not-using", "missing-feature", "technical-problem", "switching", "other")
COMMENT_LIMIT = 1000
# The retention offer: this fraction off the next period's charge (settings RETENTION_COUPON_FACTOR).
RETENTION_FACTOR = Decimal("0.3")
# A coupon group issues at most 10,000 codes: one retention group per +09:00 year; a full one offers nothing more.
_GROUP_CODES_LIMIT = 10_000


@dataclass(frozen=True)
class ExitAnswers:
    """What the subscriber answered when asked why (both optional)."""

    reasons: tuple[str, ...] = ()
    comment: str = ""

    @classmethod
    def of(cls, reasons: list[str] | tuple[str, ...] | None, comment: str | None) -> ExitAnswers:
        """Answers as given (-2 for a reason not in ``EXIT_REASONS`` or a comment over ``COMMENT_LIMIT``)."""
        chosen = tuple(dict.fromkeys(reasons or ()))
        unknown = [reason for reason in chosen if reason not in EXIT_REASONS]
        if unknown:
            raise DomainError(ErrorCode.INVALID_VALUE, f"unknown exit reasons {unknown}")
        text = (comment or "").strip()
        if len(text) > COMMENT_LIMIT:
            raise DomainError(ErrorCode.INVALID_VALUE, f"a comment is at most {COMMENT_LIMIT} characters")
        return cls(chosen, text)


@dataclass(frozen=True)
class RetentionOffer:
    """The one offer: ``factor`` off the renewal at ``renews_at`` (``price`` → ``offered_price``)."""

    factor: Decimal
    renews_at: datetime
    price: int
    offered_price: int
    currency: Currency


@dataclass(frozen=True)
class ExitQuestion:
    """What the exit dialog shows: the reasons to choose from and the offer, if there is one."""

    reasons: tuple[str, ...]
    offer: RetentionOffer | None


def retention_group_id(year: int) -> UUID:
    """The retention coupon group of a +09:00 year."""
    return uuid5(NAMESPACE_URL, f"/coupon-groups/retention/{year}")


def retention_rules(factor: Decimal, year: int, issued_count: int = 1) -> GroupRules:
    """A private group: each code one use, once per user licence, any life and country, no window."""
    return GroupRules(
        name=f"Retention {year}: stay for a discounted renewal",
        group_type=GroupType.PRIVATE,
        constraint_type=ConstraintType.USER_LICENCE,
        factor=factor,
        sub_issued_count=1,
        issued_count=issued_count,
    )


def _year(now: datetime) -> int:
    return now.astimezone(BUSINESS_TIME).year


def _group(store: Storefront, now: datetime) -> CouponGroup | None:
    try:
        group: CouponGroup = store.repository.get(retention_group_id(_year(now)))
    except AggregateNotFoundError:
        return None
    return group


def offer_for(
    subscription: Subscription, factor: Decimal, group: CouponGroup | None, versions: CatalogueVersions
) -> RetentionOffer | None:
    """The offer this subscription may be shown now, if any: offers on (``factor`` > 0), the subscription's one
    offer still open, and room left in the year's group; its prices are the next renewal's (``next_renewal``), before
    and after the offer's discount."""
    renews_at = subscription.renews_at
    renewal = subscription.next_renewal(versions)
    if factor <= 0 or not subscription.retention_offer_open or renews_at is None or renewal is None:
        return None
    if group is not None and len(group.codes) >= _GROUP_CODES_LIMIT:
        return None
    rate = group.rules.factor if group is not None else factor
    price = renewal.quote
    return RetentionOffer(rate, renews_at, price.amount, price.with_coupon(rate).amount, price.currency)


def exit_question(
    store: Storefront, clock: Clock, *, account_id: UUID, subscription_id: UUID, factor: Decimal
) -> ExitQuestion:
    """The question to ask a subscriber stopping auto-renewal, and the one offer if it is open."""
    subscription = load_subscription(store, subscription_id, account_id)
    offer = offer_for(subscription, factor, _group(store, clock.now()), load_versions(store))
    return ExitQuestion(EXIT_REASONS, offer)


def stop_auto_renewal(
    store: Storefront,
    clock: Clock,
    *,
    account_id: UUID | None,
    subscription_id: UUID,
    answers: ExitAnswers,
    offer_declined: bool = False,
    recorded_with: Witness | None = None,
) -> int:
    """Stop auto-renewal with the subscriber's answers (``offer_declined``: the offer was shown and declined);
    the log position."""
    return cancel_auto_renewal(
        store,
        clock,
        account_id=account_id,
        subscription_id=subscription_id,
        recorded_with=recorded_with,
        reasons=list(answers.reasons),
        comment=answers.comment,
        offer_declined=offer_declined,
    )


def accept_retention_offer(
    store: Storefront,
    clock: Clock,
    *,
    account_id: UUID,
    subscription_id: UUID,
    answers: ExitAnswers,
    factor: Decimal,
) -> int:
    """Take the one offer: a code of the year's retention group is issued to the subscription, whose next period is
    charged less its factor; auto-renewal stays on. -612 when the offer was answered before, -604 when none is open
    (the subscription does not renew, offers are off, or the year's group is full). The log position."""

    def attempt() -> int:
        subscription = load_subscription(store, subscription_id, account_id)
        now = clock.now()
        group = _group(store, now)
        offer = offer_for(subscription, factor, group, load_versions(store))
        if offer is None and not subscription.retention_offer_used:
            raise DomainError(ErrorCode.CODE_CANNOT_BE_USED, "no retention offer is open")
        code = new_private_code()
        saved: list[Aggregate] = []
        if group is None:
            group = CouponGroup.open(
                group_id=retention_group_id(_year(now)), rules=retention_rules(factor, _year(now)), at=now
            )
        else:
            group.change({"issued_count": len(group.codes) + 1}, now)
        subscription.accept_retention_offer(
            code=code,
            group_id=group.id,
            factor=group.rules.factor,
            reasons=list(answers.reasons),
            comment=answers.comment,
            at=now,
        )
        group.issue([code], now)
        saved += [subscription, group, CouponCode.issue(code=code, group_id=group.id, at=now)]
        return store.save(*saved)[-1].notification.id

    return retry_on_conflict(attempt)
