"""The error catalogue holds every code of spec section 8, each with a status and three languages."""

from __future__ import annotations

from api.errors import validation_code
from domain.errors import ErrorCode
from events.values import Language

SPEC_CODES = [
    401, 403, 404, 429, 500, "STOP", -1, -2, -3, -4, -100, -105, -106, -108, -109, -114,
    -300, -301, -302, -303, -304, -305, -306, -308, -400, -401, -402, -405, -406, -407, -411,
    -601, -602, -603, -604, -605, -612, -613, -614, -615, -700, -1002, -1401, -1402, -1403,
    -1404, -2101, -10002, -120122,
]  # fmt: skip
# Codes of our own beyond the spec's, each documented in the README: -107 the licence's device limit is reached;
# -320 a tax invoice asked for a card payment (docs/papers.md); -330 to -332 a refund in progress, refused by the
# gateway, or pending at it (docs/payments.md); -340 to -344 why the money-back guarantee does not cover a licence
# (docs/money-back.md); -350 to -352 the apps' stores (docs/app-stores.md); -360 and -361 consent before a price rise
# (docs/catalogue.md); -380 a tax invoice for a supply a cash receipt was issued for (docs/papers.md).
OUR_CODES = [-107, -320, -330, -331, -332, -340, -341, -342, -343, -344, -350, -351, -352, -360, -361, -380]


def test_every_code_of_the_spec_is_in_the_catalogue_once() -> None:
    assert sorted(map(str, (code.value for code in ErrorCode))) == sorted(map(str, SPEC_CODES + OUR_CODES))


def test_every_code_answers_with_an_http_error_status() -> None:
    for code in ErrorCode:
        assert 400 <= code.status <= 599, code


def test_every_code_speaks_korean_english_and_japanese() -> None:
    for code in ErrorCode:
        texts = [code.message(language) for language in Language]
        assert all(texts), code
        assert len(set(texts)) == 3, f"{code} repeats a translation"


def test_an_unknown_language_falls_back_to_korean() -> None:
    assert ErrorCode.EMAIL_ALREADY_REGISTERED.message("xx") == "이미 가입된 이메일입니다."


def test_a_missing_or_empty_field_is_minus_one_and_a_bad_one_minus_two() -> None:
    assert validation_code([{"type": "missing", "input": None}]) is ErrorCode.EMPTY_PARAMETER
    assert validation_code([{"type": "value_error", "input": ""}]) is ErrorCode.EMPTY_PARAMETER
    assert validation_code([{"type": "value_error", "input": "not-an-email"}]) is ErrorCode.INVALID_VALUE
