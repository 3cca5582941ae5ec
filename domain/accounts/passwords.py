"""The password rule of spec section 5: English letters and digits combined, 8-20 characters."""

from __future__ import annotations

import string

MIN_LENGTH = 8
MAX_LENGTH = 20
_LETTERS = frozenset(string.ascii_letters)
_DIGITS = frozenset(string.digits)
_SYMBOLS = frozenset(string.punctuation)


def is_valid_password(password: str) -> bool:
    """True for 8-20 characters with at least one English letter and one digit.

    ASCII punctuation is allowed as well; spaces, other whitespace and non-ASCII
    letters (Hangul, kana, accented letters) are not.
    """
    if not MIN_LENGTH <= len(password) <= MAX_LENGTH:
        return False
    chars = set(password)
    if not chars <= _LETTERS | _DIGITS | _SYMBOLS:
        return False
    return bool(chars & _LETTERS) and bool(chars & _DIGITS)
