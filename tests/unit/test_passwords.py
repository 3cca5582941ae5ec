"""The password rule of spec section 5: English letters and digits combined, 8-20 characters."""

from __future__ import annotations

import pytest

from domain.accounts.passwords import is_valid_password


@pytest.mark.parametrize(
    "password",
    ["abcd1234", "A1b2C3d4", "Password1!", "a" * 19 + "1", "1234567x", "p@ss-w0rd_#"],
)
def test_letters_and_digits_of_8_to_20_characters_are_accepted(password: str) -> None:
    assert is_valid_password(password)


@pytest.mark.parametrize(
    ("password", "why"),
    [
        ("abc1234", "7 characters"),
        ("a" * 20 + "1", "21 characters"),
        ("abcdefgh", "no digit"),
        ("12345678", "no letter"),
        ("!@#$%^&*", "neither"),
        ("abcd 1234", "a space"),
        ("비밀번호1234abc", "Hangul is not an English letter"),
        ("pässwort12", "an accented letter"),
        ("", "empty"),
    ],
)
def test_anything_else_is_refused(password: str, why: str) -> None:
    assert not is_valid_password(password), why
