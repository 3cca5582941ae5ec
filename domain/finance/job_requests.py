"""Finance's background jobs (a verification of the log, an export, a close pack) asked for by a member: each request
is a staff action in the log, which is both the audit of who took which data out and what sends the job to a worker
(workers/reactions.py)."""

from __future__ import annotations

from collections.abc import Mapping
from uuid import UUID

from domain.clock import Clock
from domain.staff.member import load_member
from domain.staff.permissions import Permission
from domain.store import Storefront
from events.concurrency import retry_on_conflict

JOB_REQUESTED = "finance-job"  # the staff action's name; its subject is the job's id


def record_job_request(
    store: Storefront,
    clock: Clock,
    actor_id: UUID,
    job_id: UUID,
    kind: str,
    details: Mapping[str, str | int | None],
) -> int:
    """Record that the member asked for job ``job_id`` of ``kind`` (they need the read-ledger permission); the
    answer is the request's position in the log."""

    def attempt() -> int:
        member = load_member(store, actor_id)
        member.act(Permission.READ_LEDGER, JOB_REQUESTED, str(job_id), None, clock.now(), {"kind": kind, **details})
        return int(store.save(member)[-1].notification.id)

    return retry_on_conflict(attempt)
