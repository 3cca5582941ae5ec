"""Which licence a customer may act on: their own, and nothing else."""

from __future__ import annotations

from uuid import UUID

from eventsourcing.application import AggregateNotFoundError

from domain.errors import DomainError, ErrorCode
from domain.licences.licence import UserLicence
from domain.store import Storefront


def load_own_licence(store: Storefront, account_id: UUID, user_licence_id: UUID) -> UserLicence:
    """The caller's licence; someone else's looks exactly like a missing one (404)."""
    try:
        licence: object = store.repository.get(user_licence_id)
    except AggregateNotFoundError:
        raise DomainError(ErrorCode.NOT_FOUND) from None
    if not isinstance(licence, UserLicence) or licence.account_id != account_id:
        raise DomainError(ErrorCode.NOT_FOUND)
    return licence
