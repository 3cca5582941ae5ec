"""The error envelope: HTTP status plus {"errorCode", "message"} from the catalogue."""

from __future__ import annotations

import logging
from typing import Any

import eventsourcing.persistence
import psycopg
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from api.language import request_language
from api.revocations import RevocationsUnavailableError
from api.schemas import CamelModel
from domain.errors import FALLBACK_MESSAGE, DomainError, ErrorCode
from domain.payments.gateway import GatewayUnreachableError
from domain.ports import ObjectStoreUnavailableError
from events.concurrency import ConflictPersistedError

log = logging.getLogger(__name__)


class ErrorBody(CamelModel):
    """The body of every failure."""

    error_code: int | str = Field(description="A code of the error catalogue (spec section 8)")
    message: str = Field(description="The code's text in the request's language")


def error_response(
    request: Request, code: ErrorCode, status: int | None = None, headers: dict[str, str] | None = None
) -> JSONResponse:
    """The JSON answer for a catalogue code, in the request's language."""
    body = ErrorBody(error_code=code.value, message=code.message(request_language(request)))
    return JSONResponse(status_code=status or code.status, content=body.model_dump(), headers=headers)


def validation_code(errors: list[dict[str, Any]]) -> ErrorCode:
    """-1 when something required is missing or empty, else -2 (invalid value)."""
    for error in errors:
        if error.get("type") == "missing" or error.get("input") in ("", None):
            return ErrorCode.EMPTY_PARAMETER
    return ErrorCode.INVALID_VALUE


async def _domain_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, DomainError)
    # A rate limit's refusal says how long to wait (RFC 9110 Retry-After, in seconds), so the page can too.
    headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after else None
    return error_response(request, exc.code, exc.status, headers)


async def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return error_response(request, validation_code(list(exc.errors())), status=400)


# FastAPI answers 400 by itself for a body it cannot even decode: that is an invalid value (-2). A body over
# its cap (api.request_bodies) is one too, answered 413: the catalogue has no code for a size but the images'.
HTTP_ERROR_CODES = {400: ErrorCode.INVALID_VALUE, 413: ErrorCode.INVALID_VALUE}


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    code = ErrorCode.for_value(exc.status_code) or HTTP_ERROR_CODES.get(exc.status_code)
    if code is not None:
        return error_response(request, code, status=exc.status_code)
    language = request_language(request)
    return JSONResponse(
        status_code=exc.status_code,
        content=ErrorBody(error_code=exc.status_code, message=FALLBACK_MESSAGE[language]).model_dump(),
        headers=getattr(exc, "headers", None),
    )


async def _gateway_unreachable(request: Request, exc: Exception) -> JSONResponse:
    # Nothing was recorded (the domain records a charge only once the gateway has answered), so the
    # caller may simply try again; the same merchantUid never charges twice.
    log.warning("gateway unreachable on %s %s: %s", request.method, request.url.path, exc)
    return error_response(request, ErrorCode.SERVER_ERROR_CONTACT_ADMIN, status=503)


# The database or the object store did not answer (restarting, unreachable, a pool with no connection to
# give): the write, if any, did not commit, so the caller may try again.
STORE_UNAVAILABLE = (
    ObjectStoreUnavailableError,
    RevocationsUnavailableError,
    eventsourcing.persistence.OperationalError,
    eventsourcing.persistence.InterfaceError,
    psycopg.OperationalError,
    psycopg.InterfaceError,
)


async def _store_unavailable(request: Request, exc: Exception) -> JSONResponse:
    log.warning("store unavailable on %s %s: %s", request.method, request.url.path, type(exc).__name__)
    return error_response(request, ErrorCode.SERVER_ERROR_CONTACT_ADMIN, status=503)


async def _conflict_persisted(request: Request, exc: Exception) -> JSONResponse:
    # Other writers kept changing what the command changes; nothing of it was saved, so the caller may try again.
    log.warning("write conflicts persisted on %s %s", request.method, request.url.path)
    return error_response(request, ErrorCode.SERVER_ERROR_CONTACT_ADMIN, status=503, headers={"Retry-After": "1"})


def install_error_handlers(app: FastAPI) -> None:
    """Every failure the API can produce leaves as the envelope."""
    app.add_exception_handler(DomainError, _domain_error)
    app.add_exception_handler(GatewayUnreachableError, _gateway_unreachable)
    app.add_exception_handler(ConflictPersistedError, _conflict_persisted)
    for unavailable in STORE_UNAVAILABLE:
        app.add_exception_handler(unavailable, _store_unavailable)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
