"""What the domain needs from the outside world, as small protocols."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Protocol


class PasswordHasher(Protocol):
    """Turns a password into a slow, salted hash and checks one against it."""

    def hash(self, password: str) -> str: ...

    def verify(self, password_hash: str, password: str) -> bool: ...


@dataclass(frozen=True)
class MailMessage:
    """A rendered mail, ready to send."""

    to: str
    subject: str
    text: str
    html: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    # A stable identity (the task that sends it): a repeat of the same mail carries the same Message-ID,
    # so a send repeated after a crash overwrites its outbox file, and a mail client shows it once.
    key: str = ""


class Mailer(Protocol):
    """Delivers a rendered mail (SMTP in production, .eml files in the embedded default)."""

    def send(self, message: MailMessage) -> None: ...


@dataclass(frozen=True)
class StoredObject:
    """A file kept in the object store (a banner image, a report's image)."""

    data: bytes
    content_type: str


class ObjectStoreUnavailableError(Exception):
    """The object store did not answer (nothing was kept; the caller may try again)."""


class ObjectStore(Protocol):
    """Keeps uploaded files by key: a directory under ``var/`` in the embedded default, an S3 bucket in production."""

    def put(self, key: str, obj: StoredObject) -> None: ...

    def get(self, key: str) -> StoredObject | None: ...

    def link(self, key: str, lifetime: timedelta) -> str | None:
        """An address the object can be fetched from directly for ``lifetime``, or None when the store has none."""
        ...
