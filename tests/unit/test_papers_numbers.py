"""The numbers a cash receipt or a tax invoice is issued to: a business number's check digit, a mobile number, and
how each is shown once it was given (masked, never whole again)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.errors import DomainError, ErrorCode
from domain.papers.numbers import (
    CashReceiptChoice,
    CashReceiptKind,
    business_number,
    business_number_is_valid,
    mask_business_number,
    mask_phone,
)


@pytest.mark.parametrize("number", ["1248100998", "2208162517", "1234567891"])
def test_real_business_numbers_carry_their_check_digit(number: str) -> None:
    assert business_number_is_valid(number)


@pytest.mark.parametrize("number", ["1248100999", "2208162510", "124810099", "12481009981", "12481OO998", ""])
def test_a_wrong_check_digit_or_length_is_refused(number: str) -> None:
    assert not business_number_is_valid(number)


@given(st.text(alphabet="0123456789", min_size=9, max_size=9))
def test_exactly_one_check_digit_completes_any_nine_digits(first_nine: str) -> None:
    assert sum(business_number_is_valid(first_nine + digit) for digit in "0123456789") == 1


def test_a_business_number_may_be_typed_with_dashes_and_is_kept_as_digits() -> None:
    assert business_number("124-81-00998") == "1248100998"
    with pytest.raises(DomainError) as refused:
        business_number("124-81-00990")
    assert refused.value.code is ErrorCode.INVALID_VALUE
    with pytest.raises(DomainError):
        business_number("124-81-0099８")  # a full-width digit is no digit of ours


def test_numbers_are_shown_masked() -> None:
    assert mask_business_number("1248100998") == "124-81-*****"
    assert mask_phone("01012345678") == "010-****-5678"


def test_a_choice_at_checkout_is_validated_and_never_prints_the_whole_number() -> None:
    business = CashReceiptChoice.of("business", "220-81-62517")
    assert (business.kind, business.identifier, business.masked) == (
        CashReceiptKind.BUSINESS,
        "2208162517",
        "220-81-*****",
    )
    personal = CashReceiptChoice.of("personal", "010-9876-5432")
    assert personal.masked == "010-****-5432"
    assert "98765432" not in repr(personal) and "62517" not in repr(business)
    for kind, number in [("personal", "02-123-4567"), ("business", "1234567890"), ("company", "1248100998")]:
        with pytest.raises(DomainError) as refused:
            CashReceiptChoice.of(kind, number)
        assert refused.value.code is ErrorCode.INVALID_VALUE
