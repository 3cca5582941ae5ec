"""Test cards: what is kept of a card number, and what each test card does."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from integrations.portone.sandbox import cards
from integrations.portone.sandbox.errors import CardRejectedError

NOW = datetime(2026, 11, 2, tzinfo=UTC)

sixteen_digits = st.text(alphabet="0123456789", min_size=16, max_size=16)


def test_only_the_first_six_and_last_four_digits_are_kept() -> None:
    masked = cards.mask("4111-2222-3333-4444")

    assert masked.card_number == "411122******4444"
    assert (masked.card_code, masked.card_name) == ("VISA", "VISA")
    assert masked.last4 == "4444"


@given(sixteen_digits)
def test_a_masked_number_never_reveals_the_middle_digits(digits: str) -> None:
    masked = cards.mask(digits).card_number

    assert len(masked) == 16
    assert masked[6:12] == "******"
    assert (masked[:6], masked[-4:]) == (digits[:6], digits[-4:])


@pytest.mark.parametrize("number", ["", "4111", "4111-1111-1111-111", "4111 1111 1111 11111", "4111-1111-1111-111x"])
def test_anything_but_sixteen_digits_is_refused(number: str) -> None:
    with pytest.raises(CardRejectedError) as raised:
        cards.mask(number)

    assert raised.value.code == -1
    assert raised.value.message == "invalid card number: 16 digits expected"  # the number is not echoed


def test_a_card_ending_0002_is_declined_everywhere() -> None:
    card = cards.mask("4000000000000002")

    assert cards.approval_failure(card) == "card declined"
    assert cards.recurring_failure(card.card_number) == "card declined"


def test_a_card_ending_0003_is_approved_but_fails_recurring_charges() -> None:
    card = cards.mask("4000000000000003")

    assert cards.approval_failure(card) is None
    assert cards.recurring_failure(card.card_number) == "insufficient funds"


@given(sixteen_digits.filter(lambda d: d[-4:] not in ("0002", "0003")))
def test_any_other_card_is_approved(digits: str) -> None:
    card = cards.mask(digits)

    assert cards.approval_failure(card) is None
    assert cards.recurring_failure(card.card_number) is None


@pytest.mark.parametrize("expiry", ["2026-11", "202611", "2045-01"])
def test_a_current_or_future_expiry_is_accepted(expiry: str) -> None:
    cards.check_expiry(expiry, NOW)


@pytest.mark.parametrize("expiry", ["2026-10", "2030-00", "2030-13", "12/30", ""])
def test_a_past_or_malformed_expiry_is_refused(expiry: str) -> None:
    with pytest.raises(CardRejectedError):
        cards.check_expiry(expiry, NOW)


@pytest.mark.parametrize("birth", ["900101", "1234567890"])
def test_birth_is_six_digits_or_a_business_number(birth: str) -> None:
    cards.check_birth(birth)


@pytest.mark.parametrize("birth", ["", "90010", "9001011", "90-01-01"])
def test_other_birth_values_are_refused(birth: str) -> None:
    with pytest.raises(CardRejectedError):
        cards.check_birth(birth)


def test_the_two_password_digits_are_optional_but_two_digits() -> None:
    cards.check_pwd_2digit(None)
    cards.check_pwd_2digit("07")
    with pytest.raises(CardRejectedError):
        cards.check_pwd_2digit("7")
