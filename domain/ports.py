"""What the domain needs from the outside world, as small protocols."""

from __future__ import annotations

from dataclasses import dataclass, field
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
    """A file kept in the object store (a banner image)."""

    data: bytes
    content_type: str


class ObjectStore(Protocol):
    """Keeps uploaded files by key (a directory under ``var/`` by default; S3 can come later)."""

    def put(self, key: str, obj: StoredObject) -> None: ...

    def get(self, key: str) -> StoredObject | None: ...
