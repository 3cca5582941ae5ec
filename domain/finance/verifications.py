"""Verifications of the log, recorded: each one's verdict is an event in the log it checked."""

from __future__ import annotations

from datetime import datetime
from functools import singledispatchmethod
from typing import Any
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate

from domain.clock import Clock
from domain.store import Storefront
from events.finance import LogVerified


class LogVerification(Aggregate):
    """One verification of the whole log against a signed checkpoint."""

    @classmethod
    def record(
        cls,
        verification_id: UUID,
        *,
        ok: bool,
        checked: int,
        tree_size: int,
        message: str,
        bad_notification_id: int | None,
        actor_id: UUID | None,
        at: datetime,
    ) -> LogVerification:
        """The verdict of a verification that just finished."""
        return cls._create(
            LogVerified,
            id=verification_id,
            timestamp=at,
            ok=ok,
            checked=checked,
            tree_size=tree_size,
            message=message,
            bad_notification_id=bad_notification_id,
            actor_id=actor_id,
        )

    @singledispatchmethod
    def when(self, event: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} cannot apply {type(event).__name__}")

    @when.register
    def _verified(self, event: LogVerified) -> None:
        self.ok = event.ok
        self.checked = event.checked
        self.tree_size = event.tree_size
        self.message = event.message
        self.bad_notification_id = event.bad_notification_id
        self.actor_id = event.actor_id
        self.at = event.timestamp


def verification_id(job_id: UUID, attempt: int) -> UUID:
    """The id of the verdict of a job's ``attempt`` (a job whose worker died is verified again, by its next one)."""
    return uuid5(job_id, f"verification-{attempt}")


def record_verification(
    store: Storefront,
    clock: Clock,
    verification_id: UUID,
    *,
    ok: bool,
    checked: int,
    tree_size: int,
    message: str,
    bad_notification_id: int | None,
    actor_id: UUID | None,
) -> LogVerification:
    """Keep a verification's verdict in the log."""
    verification = LogVerification.record(
        verification_id,
        ok=ok,
        checked=checked,
        tree_size=tree_size,
        message=message,
        bad_notification_id=bad_notification_id,
        actor_id=actor_id,
        at=clock.now(),
    )
    store.save(verification)
    return verification
