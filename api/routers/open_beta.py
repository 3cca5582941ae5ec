"""The open beta: a free Windows licence, once per account, until the beta ends."""

from __future__ import annotations

from fastapi import APIRouter

from api.access import CallerDep
from api.error_docs import errors
from api.schemas.licences import Written
from api.services import ServicesDep
from domain.errors import ErrorCode
from domain.licences.management import join_open_beta

router = APIRouter(prefix="/licenses", tags=["licences"])


@router.post(
    "/open-beta",
    response_model=Written,
    responses=errors(ErrorCode.ALREADY_IN_OPEN_BETA, (ErrorCode.OPEN_BETA_ENDED, 410)),
)
def open_beta(services: ServicesDep, caller: CallerDep) -> Written:
    """Join the open beta: once per account (-114), not after it ended (-1002)."""
    written = join_open_beta(
        services.store, services.clock, account_id=caller.account_id, ends_at=services.settings.open_beta_ends_at
    )
    services.see_own_write(written.notification_id, "licences")
    return Written(user_license_id=written.user_licence_id)
