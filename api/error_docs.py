"""Failures in OpenAPI: each operation documents every status it can answer, with the codes behind it.

Statuses every operation of a kind can answer are derived from the operation itself: any
parameter or body -> 400 with -1 and -2; a body -> 413 with -2 (over its cap, api.request_bodies); a
bearer (required or optional) -> 401; every call -> 503 with -1002 when it runs over the request
budget. The domain codes a route can raise besides are declared next to it,
``responses=errors(ErrorCode.NOT_FOUND, ...)``, and grouped by the status the catalogue gives them.
FastAPI's 422 is dropped: validation answers 400.
"""

from __future__ import annotations

from collections.abc import Iterable
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI

from api.errors import ErrorBody
from api.request_bodies import MAX_BODY_BYTES
from domain.errors import ErrorCode
from events.values import Language

CODES = "x-error-codes"
ERROR_BODY_REF = {"$ref": "#/components/schemas/ErrorBody"}

# An answer is a catalogue code, with the status it is answered with when not the catalogue's own.
Answer = ErrorCode | tuple[ErrorCode, int]

OVER_BUDGET = (ErrorCode.SERVER_ERROR_CONTACT_ADMIN, HTTPStatus.SERVICE_UNAVAILABLE.value)
BETA_ENDED = (ErrorCode.SERVER_ERROR_CONTACT_ADMIN, HTTPStatus.GONE.value)
BODY_TOO_LARGE = (ErrorCode.INVALID_VALUE, HTTPStatus.REQUEST_ENTITY_TOO_LARGE.value)
NOTES = {
    OVER_BUDGET: "The request ran over its time budget.",
    BETA_ENDED: "Here: the open beta has ended.",
    BODY_TOO_LARGE: f"The body is over {MAX_BODY_BYTES // 1024} KiB (a multipart form: see its own limits).",
}


def errors(*answers: Answer) -> dict[int | str, dict[str, Any]]:
    """``responses=`` for a route: the domain codes it can answer besides the generic ones."""
    return {status: _response(status, codes) for status, codes in _by_status(answers).items()}


def install_error_docs(app: FastAPI) -> None:
    """Make the app's OpenAPI document describe its failures (see the module docstring)."""
    plain = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = document_errors(plain())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def document_errors(document: dict[str, Any]) -> dict[str, Any]:
    """Add the generic answers to every operation, drop 422, and name the error body's schema."""
    for item in document.get("paths", {}).values():
        for operation in item.values():
            _document_operation(operation)
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    schemas.pop("HTTPValidationError", None)
    schemas.pop("ValidationError", None)
    schemas["ErrorBody"] = ErrorBody.model_json_schema()
    return document


def generic_answers(operation: dict[str, Any]) -> list[Answer]:
    """What any operation shaped like this one can answer, whatever its route does."""
    answers: list[Answer] = []
    if operation.get("parameters") or operation.get("requestBody"):
        answers += [ErrorCode.EMPTY_PARAMETER, ErrorCode.INVALID_VALUE]
    if operation.get("requestBody"):
        answers.append(BODY_TOO_LARGE)
    if operation.get("security"):
        answers.append(ErrorCode.UNAUTHORIZED)
    answers.append(OVER_BUDGET)
    return answers


def _document_operation(operation: dict[str, Any]) -> None:
    responses: dict[str, Any] = operation.setdefault("responses", {})
    responses.pop("422", None)
    answers = generic_answers(operation)
    for key, response in responses.items():
        for value in response.get(CODES, []):
            code = ErrorCode.for_value(value)
            assert code is not None, f"{value} is not in the catalogue"
            answers.append(code if code.status == int(key) else (code, int(key)))
    for status, codes in _by_status(answers).items():
        declared = responses.get(str(status), {})
        documented = _response(status, codes)
        if declared and CODES not in declared:  # the route's own body for this status, e.g. /health's 503
            documented = _also(declared, documented)
        responses[str(status)] = documented
    operation["responses"] = dict(sorted(responses.items()))


def _by_status(answers: Iterable[Answer]) -> dict[int, list[ErrorCode]]:
    grouped: dict[int, list[ErrorCode]] = {}
    for answer in answers:
        code, status = answer if isinstance(answer, tuple) else (answer, answer.status)
        codes = grouped.setdefault(status, [])
        if code not in codes:
            codes.append(code)
    return {status: sorted(codes, key=_order) for status, codes in sorted(grouped.items())}


def _order(code: ErrorCode) -> tuple[int, str]:
    # Catalogue codes read best as the spec lists them: HTTP-status codes, STOP, then -1, -2, ... downwards.
    value = code.value
    return (0, str(value)) if isinstance(value, str) or value > 0 else (1, f"{-value:09d}")


def _response(status: int, codes: list[ErrorCode]) -> dict[str, Any]:
    lines = [f"- `{code.value}` {code.message(Language.EN)}" for code in codes]
    for index, code in enumerate(codes):
        note = NOTES.get((code, status))
        if note:
            lines[index] += f" {note}"
    return {
        "description": "\n".join([f"{HTTPStatus(status).phrase}, errorCode:", *lines]),
        "content": {
            "application/json": {
                "schema": {
                    "allOf": [
                        ERROR_BODY_REF,
                        {
                            "type": "object",
                            "properties": {
                                "errorCode": {"type": _json_type(codes), "enum": [code.value for code in codes]}
                            },
                            "required": ["errorCode"],
                        },
                    ]
                }
            }
        },
        CODES: [code.value for code in codes],
    }


def _json_type(codes: list[ErrorCode]) -> str | list[str]:
    kinds = sorted({"string" if isinstance(code.value, str) else "integer" for code in codes})
    return kinds[0] if len(kinds) == 1 else kinds


def _also(declared: dict[str, Any], documented: dict[str, Any]) -> dict[str, Any]:
    """A route's own answer for a status, or the error envelope."""
    own = declared.get("content", {}).get("application/json", {}).get("schema", {})
    error = documented["content"]["application/json"]["schema"]
    return {
        **documented,
        "description": f"{declared.get('description', '')}\n\nOr the envelope: {documented['description']}",
        "content": {"application/json": {"schema": {"anyOf": [own, error]}}},
    }
