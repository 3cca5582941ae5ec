"""Events of finance's back office: the daily reconciliation with the gateway, what finance did about each
mismatch, and each verification of the log.

A reconciliation day (``ReconciliationDayOpened``) collects every run of that Korean business day: beat's each
morning and any re-run a member asked for (``ReconciliationRan``, numbered from 1). A mismatch is explained
(``MismatchExplained``) or referred to support as a refund request (``MismatchReferred``) by a finance member.
A verification of the whole log (``LogVerified``) records its verdict and, when it failed, the first bad event.

A job finance asks for (a verification, an export, a close pack) is an aggregate of its own: the member's request
(``JobRequested``, which sends it to a worker), each worker's claim (``JobClaimed``, numbered: a job whose worker
died is claimed again), its progress (``JobProgressed``), each file it kept (``JobFileKept``) and its end
(``JobFinished``, with its result or why it failed).
"""

from __future__ import annotations

from uuid import UUID

from events.contract import StoredCreation, StoredEvent


class ReconciliationDayOpened(StoredCreation):
    """The first reconciliation of a business day (``day``, yyyy-mm-dd, Korean calendar) was recorded."""

    TOPIC = "finance.ReconciliationDayOpened"
    day: str


class ReconciliationRan(StoredEvent):
    """One run of the day's reconciliation: ``run`` (1, 2, ...), ``trigger`` (``schedule`` or ``staff``), who asked
    (``actor_id``, None for beat) and why, how many payments were compared, and every mismatch
    (``merchant_uid``, ``kind``, ``ours``, ``gateway``)."""

    TOPIC = "finance.ReconciliationRan"
    run: int
    trigger: str
    actor_id: UUID | None
    reason: str
    compared: int
    mismatches: list[dict[str, str]]


class MismatchExplained(StoredEvent):
    """A finance member explained a mismatch of run ``run`` with a note."""

    TOPIC = "finance.MismatchExplained"
    run: int
    merchant_uid: str
    kind: str
    note: str
    actor_id: UUID


class MismatchReferred(StoredEvent):
    """A finance member opened a refund request (``request_id``) for support about a mismatch of run ``run``."""

    TOPIC = "finance.MismatchReferred"
    run: int
    merchant_uid: str
    kind: str
    note: str
    request_id: UUID
    actor_id: UUID


class LogVerified(StoredCreation):
    """The whole log was verified against the latest signed checkpoint (``tree_size``): ``ok``, how many events
    were ``checked``, the verdict's ``message`` and, when it failed, the first bad event's notification id.
    ``actor_id`` names the member who asked (None for a scheduled run)."""

    TOPIC = "finance.LogVerified"
    ok: bool
    checked: int
    tree_size: int
    message: str
    bad_notification_id: int | None
    actor_id: UUID | None


class JobRequested(StoredCreation):
    """A finance member (``actor_id``) asked for a job of ``kind`` (``verify``, ``export``, ``close-pack``) with its
    ``params`` as given (an export's format, range and topics; a close pack's month)."""

    TOPIC = "finance.JobRequested"
    kind: str
    params: dict[str, str | list[str] | None]
    actor_id: UUID


class JobClaimed(StoredEvent):
    """A worker took the job: its ``attempt`` (1 for the first; a later one when the previous worker died)."""

    TOPIC = "finance.JobClaimed"
    attempt: int


class JobProgressed(StoredEvent):
    """The running job has ``done`` of ``total`` steps."""

    TOPIC = "finance.JobProgressed"
    done: int
    total: int


class JobFileKept(StoredEvent):
    """The running job kept a file for download (``name``, under the job's folder of the object store)."""

    TOPIC = "finance.JobFileKept"
    name: str


class JobFinished(StoredEvent):
    """The job ended: ``ok`` with its ``result``, or failed with ``result`` holding the error; ``done`` of ``total``
    steps as it ended."""

    TOPIC = "finance.JobFinished"
    ok: bool
    result: dict[str, str | int | bool | None]
    done: int
    total: int
