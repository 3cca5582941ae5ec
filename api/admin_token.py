"""The test harness's and the operators' credential: the build environment's TEST_ADMIN_TOKEN."""

from __future__ import annotations

import hmac
from typing import Annotated

from fastapi import Header

from api.services import ServicesDep
from domain.errors import DomainError, ErrorCode


def admin_only(services: ServicesDep, x_admin_token: Annotated[str | None, Header()] = None) -> None:
    """The admin credential from the build environment (TEST_ADMIN_TOKEN); 401 otherwise."""
    expected = services.settings.test_admin_token
    if not expected or not x_admin_token or not hmac.compare_digest(expected.encode(), x_admin_token.encode()):
        raise DomainError(ErrorCode.UNAUTHORIZED, "admin token required")
