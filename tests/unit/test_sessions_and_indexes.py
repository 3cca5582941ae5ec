"""The session (refresh-token family) and the uniqueness indexes, as aggregates."""

from __future__ import annotations

from datetime import timedelta
from uuid import uuid4

import pytest

from domain.accounts.account import Account, EmailIndex, NicknameIndex
from domain.accounts.session import REUSE, Session
from domain.accounts.tokens import REFRESH_TOKEN_LIFETIME, hash_secret
from domain.errors import DomainError, ErrorCode
from events.values import Language
from tests.support import START


def test_a_session_accepts_only_its_current_secret_and_lives_thirty_days_from_its_last_use() -> None:
    session = Session.start(family_id=uuid4(), account_id=uuid4(), secret_hash=hash_secret("one"), at=START)
    assert session.matches(hash_secret("one")) and not session.matches(hash_secret("two"))
    later = START + timedelta(days=20)
    session.rotate(hash_secret("two"), later)
    assert session.matches(hash_secret("two")) and not session.matches(hash_secret("one"))
    assert session.is_usable(START + REFRESH_TOKEN_LIFETIME + timedelta(days=1))
    assert not session.is_usable(later + REFRESH_TOKEN_LIFETIME)
    session.revoke(REUSE, later)
    session.revoke(REUSE, later)
    assert not session.is_usable(later)
    assert session.revoked_reason == REUSE
    assert len(session.collect_events()) == 3, "revoking twice records once"


def test_a_released_address_can_be_claimed_again_but_a_held_one_cannot() -> None:
    first, second = uuid4(), uuid4()
    index = EmailIndex.claim(email=" Me@Example.com ", account_id=first, at=START)
    assert index.id == EmailIndex.id_for("me@example.com") and index.is_taken
    with pytest.raises(DomainError) as held:
        index.reclaim(second, START)
    assert held.value.code is ErrorCode.EMAIL_ALREADY_REGISTERED
    with pytest.raises(DomainError):
        index.release(second, START)
    index.release(first, START)
    assert not index.is_taken
    index.reclaim(second, START)
    assert index.account_id == second


def test_nicknames_are_unique_regardless_of_case_and_spaces() -> None:
    assert NicknameIndex.id_for(" Unicorn ") == NicknameIndex.id_for("unicorn")
    index = NicknameIndex.claim(nickname="Unicorn", account_id=uuid4(), at=START)
    with pytest.raises(DomainError) as held:
        index.reclaim(uuid4(), START)
    assert held.value.code is ErrorCode.NICKNAME_IN_USE


def test_a_deleted_account_refuses_everything_and_an_email_change_needs_its_own_link() -> None:
    account = Account.register(
        email="x@example.com", password_hash="h", language=Language.KO, marketing_push_enabled=False, at=START
    )
    assert account.scope == 0
    account.request_email_change("y@example.com", "c1", START)
    with pytest.raises(DomainError) as stale:
        account.change_email("y@example.com", "c0", START)
    assert stale.value.code is ErrorCode.PASSWORD_TOKEN_EXPIRED
    with pytest.raises(DomainError):
        account.change_email("z@example.com", "c1", START)
    account.change_email("Y@example.com", "c1", START)
    assert (account.email, account.scope) == ("y@example.com", 1)
    account.delete("bye", START)
    with pytest.raises(DomainError) as gone:
        account.log_in(START)
    assert gone.value.code is ErrorCode.UNAUTHORIZED
