"""What leaving subscribers said, for finance (and the back office's reasons page): read from the log itself.

Every stop of auto-renewal (``subscription.AutoRenewalCancelled``) and every retention offer taken
(``subscription.RetentionOfferAccepted``) carries the reasons chosen and the free text, if any. The summary counts
each reason per outcome, how many said nothing, how often the one offer was declined or taken, and lists the
latest comments.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from domain.store import Storefront
from domain.subscriptions.exit import EXIT_REASONS
from events.subscriptions import AutoRenewalCancelled, RetentionOfferAccepted

_TOPICS = ("subscription.AutoRenewalCancelled", "subscription.RetentionOfferAccepted")
_PAGE = 1000
LATEST_COMMENTS = 50


@dataclass(frozen=True)
class ExitComment:
    """One subscriber's free text: when, whether they left or stayed, the reasons chosen with it."""

    at: datetime
    outcome: str
    reasons: tuple[str, ...]
    comment: str


@dataclass
class ExitSummary:
    """Counts per reason for subscribers who stopped renewing and for those who took the offer instead."""

    cancelled: int = 0
    stayed: int = 0
    unanswered: int = 0
    offers_declined: int = 0
    cancelled_reasons: Counter[str] = field(default_factory=Counter)
    stayed_reasons: Counter[str] = field(default_factory=Counter)
    comments: list[ExitComment] = field(default_factory=list)

    def note(self, event: AutoRenewalCancelled | RetentionOfferAccepted) -> None:
        """Count one answered (or unanswered) exit."""
        reasons = tuple(event.reasons)
        if isinstance(event, RetentionOfferAccepted):
            self.stayed += 1
            self.stayed_reasons.update(reasons)
            outcome = "stayed"
        else:
            self.cancelled += 1
            self.cancelled_reasons.update(reasons)
            self.offers_declined += int(event.offer_declined)
            outcome = "cancelled"
        if not reasons and not event.comment:
            self.unanswered += 1
        if event.comment:
            self.comments = [ExitComment(event.timestamp, outcome, reasons, event.comment), *self.comments]
            del self.comments[LATEST_COMMENTS:]

    def rows(self) -> list[tuple[str, int, int]]:
        """Each reason (every known one, then any other the log holds) with its cancelled and stayed counts."""
        known = list(EXIT_REASONS)
        others = sorted((set(self.cancelled_reasons) | set(self.stayed_reasons)) - set(known))
        return [(reason, self.cancelled_reasons[reason], self.stayed_reasons[reason]) for reason in known + others]


def exit_summary(store: Storefront, since: datetime | None = None, until: datetime | None = None) -> ExitSummary:
    """The exits recorded in [since, until) (all of them when open), oldest first into the summary."""
    summary = ExitSummary()
    start = 1
    while True:
        page = store.recorder.select_notifications(start=start, limit=_PAGE, topics=_TOPICS)
        for notification in page:
            event = store.mapper.to_domain_event(notification)
            if not isinstance(event, AutoRenewalCancelled | RetentionOfferAccepted):
                continue
            if (since is None or event.timestamp >= since) and (until is None or event.timestamp < until):
                summary.note(event)
        if len(page) < _PAGE:
            return summary
        start = page[-1].id + 1
