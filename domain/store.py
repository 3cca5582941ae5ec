"""The storefront's event log, with snapshotting for the long-lived aggregates."""

from __future__ import annotations

from typing import Any, ClassVar

from eventsourcing.domain import MutableOrImmutableAggregate

from domain.accounts.account import Account
from eventlog.application import EventLog


class Storefront(EventLog):
    """The transactional core: every aggregate is saved through this one application."""

    name = EventLog.name
    snapshotting_intervals: ClassVar[dict[type[MutableOrImmutableAggregate[Any]], int]] = {
        Account: 50,
    }
