"""Account calls of spec section 7 (the rest arrive with the accounts issue)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, EmailStr
from pydantic.alias_generators import to_camel

from api.services import ServicesDep
from projections.accounts import is_email_registered

router = APIRouter(prefix="/accounts", tags=["accounts"])


class EmailCheck(BaseModel):
    """Whether an address already belongs to an account."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)
    is_registered: bool


@router.get("/check", response_model=EmailCheck, response_model_by_alias=True)
def check_email(services: ServicesDep, email: Annotated[EmailStr, Query()]) -> EmailCheck:
    """Is this email already registered?"""
    return EmailCheck(is_registered=is_email_registered(services.views, email))
