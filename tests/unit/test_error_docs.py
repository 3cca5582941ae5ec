"""The OpenAPI document lists each status an operation can answer, with the catalogue codes behind it."""

from __future__ import annotations

from typing import Any

import pytest

from api.error_docs import errors
from api.openapi import openapi_document
from domain.errors import ErrorCode

V1 = "/web/unicornpro/v1"


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return openapi_document()


def operations(document: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [
        (f"{method.upper()} {path}", operation)
        for path, item in document["paths"].items()
        for method, operation in item.items()
    ]


def codes(operation: dict[str, Any], status: int) -> list[int | str]:
    return list(operation["responses"][str(status)]["x-error-codes"])


def test_declared_codes_are_grouped_by_their_catalogue_status() -> None:
    declared = errors(ErrorCode.NOT_FOUND, ErrorCode.AUTO_PAYMENT_ALREADY_SET, ErrorCode.DEVICE_NOT_FOUND)
    assert {status: response["x-error-codes"] for status, response in declared.items()} == {
        404: [404, -1404],
        409: [-306],
    }
    assert declared[404]["description"].splitlines() == [
        "Not Found, errorCode:",
        "- `404` The information does not exist.",
        "- `-1404` The device does not exist.",
    ]


def test_no_operation_documents_422_and_every_one_the_request_budget(document: dict[str, Any]) -> None:
    assert "HTTPValidationError" not in document["components"]["schemas"]
    for label, operation in operations(document):
        assert "422" not in operation["responses"], label
        assert codes(operation, 503) == [-1002], label


def test_inputs_answer_400_with_minus_1_and_minus_2_and_a_bearer_401(document: dict[str, Any]) -> None:
    for label, operation in operations(document):
        if operation.get("parameters") or operation.get("requestBody"):
            assert codes(operation, 400)[:2] == [-1, -2], label
        if operation.get("security"):
            assert 401 in codes(operation, 401), label


def test_an_error_answer_is_the_envelope_narrowed_to_its_codes(document: dict[str, Any]) -> None:
    card = document["paths"][f"{V1}/billingkeys"]["put"]["responses"]["400"]
    assert card["content"]["application/json"]["schema"]["allOf"] == [
        {"$ref": "#/components/schemas/ErrorBody"},
        {
            "type": "object",
            "properties": {"errorCode": {"type": "integer", "enum": [-1, -2, -305]}},
            "required": ["errorCode"],
        },
    ]
    assert "- `-305` Please check the card information you entered." in card["description"]
    assert document["components"]["schemas"]["ErrorBody"]["required"] == ["errorCode", "message"]


def test_the_open_beta_says_when_it_has_ended(document: dict[str, Any]) -> None:
    beta = document["paths"][f"{V1}/licenses/open-beta"]["post"]
    assert (codes(beta, 409), codes(beta, 410)) == ([-114], [-1002])


def test_health_keeps_its_own_answer_beside_the_envelope(document: dict[str, Any]) -> None:
    unhealthy = document["paths"][f"{V1}/health"]["get"]["responses"]["503"]
    assert unhealthy["content"]["application/json"]["schema"]["anyOf"][0] == {"$ref": "#/components/schemas/Health"}


def test_a_body_may_be_refused_as_too_large_and_a_query_may_not(document: dict[str, Any]) -> None:
    login = document["paths"][f"{V1}/auth/login"]["post"]
    assert codes(login, 413) == [-2]
    assert "64 KiB" in login["responses"]["413"]["description"]
    assert "413" not in document["paths"][f"{V1}/accounts/check"]["get"]["responses"]
