"""Access tokens, link tokens and refresh tokens, checked against the injected clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from uuid import UUID, uuid4

import jwt
import pytest

from domain.accounts.tokens import (
    ACCESS_TOKEN_LIFETIME,
    CONFIRM_EMAIL,
    RESET_PASSWORD,
    InvalidTokenError,
    RefreshToken,
    hash_secret,
    issue_access_token,
    new_secret,
    parse_refresh_token,
    read_access_token,
    read_link,
    sign_link,
)

SECRET = "test-secret-of-a-decent-length-0123456789"
NOW = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)


def test_an_access_token_carries_the_account_its_scope_and_its_session_for_thirty_minutes() -> None:
    account_id, session_id = uuid4(), uuid4()
    logged_in_at = NOW - timedelta(days=2, microseconds=123456)
    issued = issue_access_token(SECRET, account_id, 1, NOW, session_id=session_id, session_started_at=logged_in_at)
    assert issued.expires_at == NOW + ACCESS_TOKEN_LIFETIME
    assert issued.exp == int((NOW + timedelta(minutes=30)).timestamp())
    claims = jwt.decode(issued.token, SECRET, algorithms=["HS256"], audience="access", options={"verify_exp": False})
    assert (claims["sub"], claims["sid"], claims["scope"], claims["exp"]) == (
        str(account_id),
        str(session_id),
        1,
        issued.exp,
    )
    read = read_access_token(SECRET, issued.token, NOW + timedelta(minutes=29, seconds=59))
    # The login's time keeps its microseconds: a session from just before a password reset is told from one after.
    assert (read.account_id, read.scope, read.session_id) == (account_id, 1, session_id)
    assert read.session_started_at == logged_in_at.timestamp()


def test_a_token_that_names_no_session_is_refused() -> None:
    sessionless = jwt.encode(
        {"sub": str(uuid4()), "scope": 1, "aud": "access", "iat": int(NOW.timestamp()), "exp": 2**40},
        SECRET,
        algorithm="HS256",
    )
    with pytest.raises(InvalidTokenError):
        read_access_token(SECRET, sessionless, NOW)


def test_an_access_token_stops_working_at_its_expiry_by_the_clock() -> None:
    issued = issue_access_token(SECRET, uuid4(), 0, NOW, session_id=uuid4())
    with pytest.raises(InvalidTokenError) as raised:
        read_access_token(SECRET, issued.token, NOW + ACCESS_TOKEN_LIFETIME)
    assert raised.value.expired


def test_a_token_signed_with_another_secret_or_tampered_with_is_refused() -> None:
    issued = issue_access_token(SECRET, uuid4(), 0, NOW, session_id=uuid4())
    with pytest.raises(InvalidTokenError):
        read_access_token("another-secret-of-a-decent-length-987654", issued.token, NOW)
    header, _payload, signature = issued.token.split(".")
    forged = jwt.encode(
        {"sub": str(uuid4()), "scope": 1, "aud": "access", "exp": issued.exp},
        "a-guessed-secret-that-is-long-enough-000",
        algorithm="HS256",
    ).split(".")[1]
    with pytest.raises(InvalidTokenError):
        read_access_token(SECRET, f"{header}.{forged}.{signature}", NOW)
    with pytest.raises(InvalidTokenError):
        read_access_token(SECRET, "not-a-token", NOW)


def test_an_unsigned_token_is_refused() -> None:
    unsigned = jwt.encode({"sub": str(uuid4()), "scope": 1, "aud": "access", "exp": 2**40}, None, algorithm="none")
    with pytest.raises(InvalidTokenError):
        read_access_token(SECRET, unsigned, NOW)


def test_a_link_token_only_works_for_its_own_purpose() -> None:
    account_id = uuid4()
    link = sign_link(SECRET, CONFIRM_EMAIL, account_id, NOW, timedelta(hours=24), email="a@example.com")
    claims = read_link(SECRET, CONFIRM_EMAIL, link, NOW + timedelta(hours=23))
    assert (claims.account_id, claims.values["email"]) == (account_id, "a@example.com")
    with pytest.raises(InvalidTokenError):
        read_link(SECRET, RESET_PASSWORD, link, NOW)
    with pytest.raises(InvalidTokenError):
        read_access_token(SECRET, link, NOW)
    access = issue_access_token(SECRET, account_id, 1, NOW, session_id=uuid4())
    with pytest.raises(InvalidTokenError):
        read_link(SECRET, CONFIRM_EMAIL, access.token, NOW)
    with pytest.raises(InvalidTokenError) as raised:
        read_link(SECRET, CONFIRM_EMAIL, link, NOW + timedelta(hours=24))
    assert raised.value.expired


def test_a_refresh_token_is_family_dot_secret_and_only_its_hash_is_kept() -> None:
    token = RefreshToken(uuid4(), new_secret())
    assert parse_refresh_token(str(token)) == token
    assert token.secret_hash == hash_secret(token.secret) != token.secret
    assert new_secret() != new_secret()


@pytest.mark.parametrize(
    "value", [None, "", "nodot", "not-a-uuid.secret", f"{UUID(int=7)}.", f"{UUID(int=7)}." + "x" * 300]
)
def test_anything_that_cannot_be_a_refresh_token_parses_to_none(value: str | None) -> None:
    assert parse_refresh_token(value) is None
