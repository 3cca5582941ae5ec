"""The reminders before renewals, as beat's hourly task and the test harness record them: every subscription whose
renewal's reminder falls due now (found in the subscriptions view) gets it recorded once per period, at the price
``Subscription.next_renewal`` says the renewal will charge; the reactor mails each from the log."""

from __future__ import annotations

from domain.clock import Clock
from domain.store import Storefront
from domain.subscriptions.reminders import LONGEST_REMINDER_LEAD
from domain.subscriptions.renewal import remind_renewals
from eventlog.database import ViewDatabase
from projections.subscriptions import upcoming_renewals


def record_due_reminders(store: Storefront, views: ViewDatabase, clock: Clock) -> int:
    """Record the reminder of every renewal whose reminder falls due now (7 days ahead of a yearly one, 3 of a
    monthly one; once per period); how many were recorded."""
    now = clock.now()
    return remind_renewals(store, clock, upcoming_renewals(views, now, now + LONGEST_REMINDER_LEAD))
