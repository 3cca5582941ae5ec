"""The session (refresh-token family) and the uniqueness indexes, as aggregates."""

from __future__ import annotations

from datetime import datetime, timedelta
from uuid import uuid4

import pytest

from domain.accounts.account import Account, EmailIndex, NicknameIndex
from domain.accounts.session import ACCOUNT_CLOSED, REUSE, Session
from domain.accounts.tokens import REFRESH_TOKEN_LIFETIME, hash_secret
from domain.errors import DomainError, ErrorCode
from events.values import Language
from tests.support import START


def test_a_session_rotates_on_its_current_secret_and_lives_thirty_days_from_its_last_use() -> None:
    session = Session.start(family_id=uuid4(), account_id=uuid4(), secret_hash=hash_secret("one"), at=START)
    later = START + timedelta(days=20)
    assert session.refresh(hash_secret("one"), hash_secret("two"), START, later) is None
    assert session.matches(hash_secret("two")) and not session.matches(hash_secret("one"))
    assert session.is_usable(START + REFRESH_TOKEN_LIFETIME + timedelta(days=1))
    assert not session.is_usable(later + REFRESH_TOKEN_LIFETIME)
    assert session.refresh(hash_secret("two"), hash_secret("three"), START, later + REFRESH_TOKEN_LIFETIME)
    assert len(session.collect_events()) == 2, "an expired family refuses without recording anything"


def test_an_old_secret_presented_again_revokes_the_whole_family() -> None:
    session = Session.start(family_id=uuid4(), account_id=uuid4(), secret_hash=hash_secret("one"), at=START)
    session.refresh(hash_secret("one"), hash_secret("two"), START, START)
    assert session.refresh(hash_secret("one"), hash_secret("thief"), START, START) == "refresh token reused"
    assert session.revoked_reason == REUSE
    assert session.refresh(hash_secret("two"), hash_secret("three"), START, START) == "session ended"
    session.revoke(REUSE, START)
    assert len(session.collect_events()) == 3, "revoking twice records once"


@pytest.mark.parametrize(
    ("credentials_changed_at", "why"),
    [(None, "the account was deleted"), (START + timedelta(hours=1), "the password changed after the login")],
)
def test_a_family_that_outlived_its_account_or_password_is_revoked(
    credentials_changed_at: datetime | None, why: str
) -> None:
    session = Session.start(family_id=uuid4(), account_id=uuid4(), secret_hash=hash_secret("one"), at=START)
    refused = session.refresh(hash_secret("one"), hash_secret("two"), credentials_changed_at, START + timedelta(days=1))
    assert refused is not None, why
    assert session.revoked_reason == ACCOUNT_CLOSED


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
