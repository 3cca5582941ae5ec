"""Text people type in (names, device ids), before it is recorded."""

from __future__ import annotations

from domain.errors import DomainError, ErrorCode


def check_storable(text: str, what: str) -> str:
    """The text, or -2 when it holds a NUL: no name needs one, and PostgreSQL's text columns cannot store it."""
    if "\x00" in text:
        raise DomainError(ErrorCode.INVALID_VALUE, f"{what} holds a NUL character")
    return text
