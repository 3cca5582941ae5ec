"""What of the log leaves the building, and for whom: the one declaration of the fields that hold a secret, which
every way data leaves the store to staff applies (proofs, exports in every format, close packs, timelines and the
customer page, CSVs, point-in-time reads, the staff actions audit, mails to staff). Full records stay with the
command line (``python -m eventlog.audit``), as finance's own tool.

A field declared with no permission (a password's or a refresh secret's hash, a sealed one-time-code secret) is
withheld from everyone in the back office. A field declared with a permission (a card's mask, a licence key) shows
in full to a member whose roles give that permission and masked, all but its last four characters, to anyone else.
An event that holds a field a member may not see in full gets no proof for them: a proof is the whole stored record.
``tests/security/test_secrets_never_leave.py`` walks every way out and fails when a declared field gets through.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from domain.staff.permissions import ROLE_PERMISSIONS, Permission
from events.contract import registered_topics

WITHHELD = "[withheld]"
SHOWN_CHARACTERS = 4

# Each field that holds a secret, and the permission that needs it whole (None: nobody in the back office).
SECRET_FIELDS: Mapping[str, Permission | None] = {
    "password_hash": None,  # a customer's password (argon2id), also a claim's and a reset's new one
    "secret_hash": None,  # a login session's refresh secret
    "sealed_secret": None,  # a staff member's one-time-code secret, sealed with the server's key
    "card_number": Permission.REFUND,  # the gateway's mask of a card: who moves money matches a payment by it
    "licence_key": Permission.HELP_CUSTOMERS,  # support finds a customer by it and resends it; nobody else needs it
}


def mask(value: str) -> str:
    """Every letter and digit but the last four as ``*`` (separators kept): ``****-****-****-H4ZD``."""
    shown = 0
    masked: list[str] = []
    for character in reversed(value):
        if character.isalnum() and shown >= SHOWN_CHARACTERS:
            masked.append("*")
        else:
            shown += character.isalnum()
            masked.append(character)
    return "".join(reversed(masked))


def event_fields(topic: str) -> frozenset[str]:
    """The fields an event of this topic carries (none for a topic nobody registered)."""
    event_class = registered_topics().get(topic)
    if event_class is None:
        return frozenset()
    fields: set[str] = set()
    for klass in event_class.__mro__:
        fields |= set(getattr(klass, "__annotations__", {}))
    return frozenset(fields)


@dataclass(frozen=True)
class Disclosure:
    """What one member (by their permissions) may see of the declared fields."""

    permissions: frozenset[Permission]

    @classmethod
    def to(cls, permissions: Iterable[Permission]) -> Disclosure:
        """The disclosure for these permissions (a member's ``permissions``)."""
        return cls(frozenset(permissions))

    @classmethod
    def to_everyone_who_may(cls, permission: Permission) -> Disclosure:
        """The disclosure for what every role with ``permission`` may see (a file any of them may download)."""
        roles = [allowed for allowed in ROLE_PERMISSIONS.values() if permission in allowed]
        return cls(frozenset.intersection(*roles))

    def sees_whole(self, field: str) -> bool:
        """May the member see this field as it is stored?"""
        if field not in SECRET_FIELDS:
            return True
        needed = SECRET_FIELDS[field]
        return needed is not None and needed in self.permissions

    def value(self, field: str, value: Any) -> Any:
        """The field's value as the member may see it."""
        if self.sees_whole(field) or value is None:
            return value
        if SECRET_FIELDS[field] is None or not isinstance(value, str):
            return WITHHELD
        return mask(value)

    def fields(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """A record (nested dicts and lists too) with every declared field as the member may see it."""
        return {key: self.value(key, self._nested(item)) for key, item in data.items()}

    def rows(self, rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """Each row as the member may see it."""
        return [self.fields(row) for row in rows]

    def _nested(self, item: Any) -> Any:
        if isinstance(item, Mapping):
            return self.fields(item)
        if isinstance(item, list | tuple):
            return [self._nested(each) for each in item]
        return item

    def withheld_from(self, topic: str) -> frozenset[str]:
        """The fields of an event of this topic the member may not see whole."""
        return frozenset(field for field in event_fields(topic) if not self.sees_whole(field))

    def may_prove(self, topic: str) -> bool:
        """May the member have this event's proof (its whole stored record)? Not for a topic nobody registered."""
        return topic in registered_topics() and not self.withheld_from(topic)

    def stored_state(self, state: str) -> tuple[str, list[str]]:
        """An event's stored state (JSON) as the member may see it, and the declared fields it changed (sorted)."""
        try:
            decoded = json.loads(state)
        except ValueError:
            return WITHHELD, ["state"]
        if not isinstance(decoded, dict):
            return state, []
        shown = self.fields(decoded)
        changed = sorted(_changed(decoded, shown))
        return (json.dumps(shown, ensure_ascii=False, separators=(",", ":")) if changed else state), changed


def _changed(before: Mapping[str, Any], after: Mapping[str, Any]) -> set[str]:
    found: set[str] = set()
    for key, value in before.items():
        if after[key] != value:
            found |= {key} if key in SECRET_FIELDS else _changed_nested(value, after[key])
    return found


def _changed_nested(before: Any, after: Any) -> set[str]:
    if isinstance(before, Mapping):
        return _changed(before, after)
    if isinstance(before, list):
        return set().union(*(_changed_nested(one, other) for one, other in zip(before, after, strict=True)))
    return set()


# What a member with no permission sees (the strictest; a job whose requester is unknown).
NOBODY = Disclosure(frozenset())
