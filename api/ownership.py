"""The caller's own resources, named in the path: one lookup per kind, used as a dependency by the routes that
take no body (a route with a body calls the same function after the body is read, so a malformed body still
answers 422 first, as it always has). Someone else's resource looks exactly like a missing one (404)."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import Depends

from api.access import CallerDep
from api.services import Services, ServicesDep
from domain.errors import DomainError, ErrorCode
from domain.licences.licence import UserLicence
from domain.licences.ownership import load_own_licence
from projections.subscriptions import subscription_of_licence


def own_subscription_id(services: Services, account_id: UUID, user_license_id: UUID) -> UUID:
    """The subscription behind one of the caller's licences (404 when it has none or is not theirs)."""
    row = subscription_of_licence(services.views, account_id, user_license_id)
    if row is None:
        raise DomainError(ErrorCode.NOT_FOUND)
    return UUID(row["subscription_id"])


def _own_subscription(user_license_id: UUID, services: ServicesDep, caller: CallerDep) -> UUID:
    return own_subscription_id(services, caller.account_id, user_license_id)


def _own_licence(user_license_id: UUID, services: ServicesDep, caller: CallerDep) -> UserLicence:
    return load_own_licence(services.store, caller.account_id, user_license_id)


OwnSubscriptionDep = Annotated[UUID, Depends(_own_subscription)]
"""The id of the subscription behind the path's ``user_license_id``, one of the caller's."""

OwnLicenceDep = Annotated[UserLicence, Depends(_own_licence)]
"""The path's ``user_license_id`` loaded, one of the caller's."""
