"""The licence link of spec section 4: does the key's address still need confirming?"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request

from api.error_docs import errors
from api.schemas import CamelModel
from api.services import ServicesDep
from domain.errors import ErrorCode
from domain.licences.management import key_holder

router = APIRouter(prefix="/accounts", tags=["accounts"])


class KeyEmailCheck(CamelModel):
    """Whether the licence key's account is registered and its address confirmed (never the address itself: the
    licence link carries it, and a key alone must not tell anyone whose it is)."""

    is_registered: bool
    email_confirmed: bool


@router.get(
    "/check/email", response_model=KeyEmailCheck, responses=errors(ErrorCode.NOT_FOUND, ErrorCode.TOO_MANY_REQUESTS)
)
def check_email_for_licence_key(
    services: ServicesDep,
    request: Request,
    user_license_key: Annotated[str, Query(alias="userLicenseKey", min_length=1)],
) -> KeyEmailCheck:
    """For a licence link: whether the key's holder is registered and confirmed (404 unknown key)."""
    services.limiter.key_lookup(request, user_license_key)
    holder = key_holder(services.store, user_license_key)
    return KeyEmailCheck(is_registered=holder.registered, email_confirmed=holder.email_confirmed)
