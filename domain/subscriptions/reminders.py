"""When a subscriber is told that a renewal is about to charge them (docs/subscriptions.md, *Reminders*).

One rule for every subscription: a renewal that charges a year's period is announced ``YEARLY_REMINDER_LEAD``
(7 days) ahead, any shorter period (the monthly one) ``MONTHLY_REMINDER_LEAD`` (3 days) ahead; once per period,
only while the subscription renews by itself (active). The subscription records ``subscription.RenewalReminded``
when the reminder falls due, and the mail goes from the log like every other mail.
"""

from __future__ import annotations

from datetime import datetime, timedelta

YEARLY_REMINDER_LEAD = timedelta(days=7)
MONTHLY_REMINDER_LEAD = timedelta(days=3)
# A period at least this long is a yearly one (a year is 365 days here, a month 30).
_YEAR = timedelta(days=365)
# The longest lead: the renewal pass's reminder scan looks this far ahead.
LONGEST_REMINDER_LEAD = max(YEARLY_REMINDER_LEAD, MONTHLY_REMINDER_LEAD)


def reminder_lead(period: timedelta) -> timedelta:
    """How long before a renewal charging a period of ``period`` the subscriber is told."""
    return YEARLY_REMINDER_LEAD if period >= _YEAR else MONTHLY_REMINDER_LEAD


def reminder_due(renews_at: datetime, period: timedelta, now: datetime) -> bool:
    """Is ``now`` within the reminder's window of the renewal at ``renews_at``: from the lead before it up to the
    charge itself (after the charge it is too late to tell)."""
    return renews_at - reminder_lead(period) <= now < renews_at
