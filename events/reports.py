"""Events of ad, misblock and bug reports."""

from __future__ import annotations

from uuid import UUID

from events.contract import StoredCreation, StoredEvent


class ReportSubmitted(StoredCreation):
    """Someone reported an ad, a misblocked page or a bug, with what their app runs and up to five images.

    ``images`` are the stored (metadata-free) files: ``{"key", "content_type", "bytes", "width", "height",
    "frames"}``, ``key`` naming the object in the object store. Empty text fields are None.
    """

    TOPIC = "report.Submitted"
    account_id: UUID | None
    product: str
    problem: str
    url: str | None
    comment: str | None
    email: str | None
    adult: bool
    application: str | None
    application_etc: str | None
    filters: list[int]
    custom_filters: list[str]
    version: str | None
    device_model: str | None
    filter_versions: str | None
    os: str | None
    os_version: str | None
    checked: bool
    images: list[dict[str, str | int]]


class ReportHandled(StoredEvent):
    """A staff member closed the report as handled: ``actor_id`` who, ``reason`` what was done (a filter fixed, a
    reply sent, nothing to do); the ``timestamp`` is when. The member's ``staff.Acted`` is saved with it."""

    TOPIC = "report.Handled"
    actor_id: UUID
    reason: str
