"""Account rules that live in the domain: guests and members, registering with a licence link's key
in one save, support-desk sign-on, and refreshing a session through the use case."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from uuid import UUID

import pytest

from domain.accounts.account import MAX_PENDING_CLAIMS, Account
from domain.accounts.auth import log_in, refresh_session
from domain.accounts.claims import claim_link_token, complete_claim
from domain.accounts.profile import change_profile, delete_account
from domain.accounts.registration import register_account
from domain.accounts.session import ACCOUNT_CLOSED, REUSE, Session
from domain.accounts.support_desk import support_desk_identity
from domain.accounts.tokens import parse_refresh_token
from domain.errors import ErrorCode
from events.values import Language
from tests.fakes import PlainHasher
from tests.support import START, register
from tests.unit.billing_world import ANNUAL, World, refused

SECRET = "unit-test-secret-of-thirty-two-bytes"


@pytest.fixture
def saves(world: World, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ...]]:
    """The aggregate kinds of each ``store.save`` call made from here on."""
    calls: list[tuple[str, ...]] = []
    save: Callable[..., Any] = world.store.save

    def counted(*aggregates: Any, **kwargs: Any) -> Any:
        calls.append(tuple(type(aggregate).__name__ for aggregate in aggregates))
        return save(*aggregates, **kwargs)

    monkeypatch.setattr(world.store, "save", counted)
    return calls


def _register(world: World, email: str, licence_key: str | None = None) -> Account:
    registered = register_account(
        world.store, world.clock, PlainHasher(), email=email, password="abcd1234", language=Language.EN,
        marketing_push_enabled=True, licence_key=licence_key,
    )  # fmt: skip
    return world.get(registered.account_id, Account)


# -- guests and members ----------------------------------------------------------------


def test_a_guest_purchase_opens_a_passwordless_guest_account_that_is_no_member(world: World) -> None:
    bought = world.buy(ANNUAL, email="guest@example.com")
    guest = world.get(bought.account_id, Account)
    assert (guest.is_guest, guest.is_member, guest.email_confirmed) == (True, False, False)


def test_registering_with_a_guests_address_is_a_claim_that_the_mailbox_completes(world: World) -> None:
    bought = world.buy(ANNUAL, email="guest@example.com")
    account = _register(world, "Guest@Example.com", bought.licence_key)
    assert account.id == bought.account_id
    assert (account.is_guest, account.is_member, account.email_confirmed) == (True, False, False), "nothing yet"
    [claim_id] = account.pending_claims
    token = claim_link_token(SECRET, account.id, account.email, claim_id, world.clock.now())
    with refused(ErrorCode.EMAIL_OR_PASSWORD_MISMATCH):
        complete_claim(world.store, world.clock, PlainHasher(), SECRET, token=token, password="wrong1234")
    session = complete_claim(world.store, world.clock, PlainHasher(), SECRET, token=token, password="abcd1234")
    account = world.get(bought.account_id, Account)
    assert (account.is_guest, account.is_member, account.email_confirmed) == (False, True, True)
    assert (session.account_id, session.scope, account.language) == (account.id, 1, Language.EN)
    assert world.licence(bought.user_licence_id).account_id == account.id


def test_a_claim_links_token_is_refused_once_the_account_is_claimed(world: World) -> None:
    bought = world.buy(ANNUAL, email="guest@example.com")
    account = _register(world, "guest@example.com")
    [claim_id] = account.pending_claims
    token = claim_link_token(SECRET, account.id, account.email, claim_id, world.clock.now())
    complete_claim(world.store, world.clock, PlainHasher(), SECRET, token=token, password="abcd1234")
    with refused(ErrorCode.PASSWORD_TOKEN_EXPIRED):
        complete_claim(world.store, world.clock, PlainHasher(), SECRET, token=token, password="abcd1234")
    with refused(ErrorCode.EMAIL_ALREADY_REGISTERED):
        _register(world, "guest@example.com")
    assert world.get(bought.account_id, Account).is_member


def test_a_guest_keeps_only_its_latest_claims(world: World) -> None:
    world.buy(ANNUAL, email="guest@example.com")
    for _ in range(MAX_PENDING_CLAIMS + 2):
        account = _register(world, "guest@example.com")
    assert len(account.pending_claims) == MAX_PENDING_CLAIMS


def test_a_deleted_member_is_neither_a_member_nor_a_guest(world: World) -> None:
    member = world.member()
    delete_account(world.store, world.clock, member, reason="bye")
    account = world.get(member, Account)
    assert (account.is_guest, account.is_member) == (False, False)


def test_a_members_address_cannot_be_registered_again(world: World) -> None:
    world.member("taken@example.com")
    with refused(ErrorCode.EMAIL_ALREADY_REGISTERED):
        _register(world, "taken@example.com")


# -- registering from a licence link ---------------------------------------------------


def test_registering_from_a_licence_link_takes_its_licence_in_the_same_save(
    world: World, saves: list[tuple[str, ...]]
) -> None:
    bought = world.buy(ANNUAL, email="guest@example.com")
    saves.clear()
    account = _register(world, "new@example.com", bought.licence_key)
    assert saves == [("Account", "EmailIndex", "UserLicence")]
    assert world.licence(bought.user_licence_id).account_id == account.id


def test_a_licence_links_key_that_cannot_be_taken_leaves_the_registration_alone(
    world: World, saves: list[tuple[str, ...]]
) -> None:
    owner = world.member("owner@example.com")
    bought = world.buy(ANNUAL, account_id=owner)
    saves.clear()
    for email, key in (("one@example.com", bought.licence_key), ("two@example.com", "ABCD-EFGH-JKMN-PQRS")):
        account = _register(world, email, key)
        assert account.is_member
    assert saves == [("Account", "EmailIndex"), ("Account", "EmailIndex")]
    assert world.licence(bought.user_licence_id).account_id == owner


# -- support desk ----------------------------------------------------------------------


def test_the_support_desk_needs_a_confirmed_address_then_a_name(world: World) -> None:
    member = register(world.store, "desk@example.com", world.clock).account_id
    with refused(ErrorCode.ACCOUNT_NOT_APPROVED):
        support_desk_identity(world.store, member)
    account = world.get(member, Account)
    account.confirm_email("desk@example.com", START)
    world.store.save(account)
    with refused(ErrorCode.NAME_REQUIRED_FOR_SSO):
        support_desk_identity(world.store, member)
    change_profile(world.store, world.clock, member, name="Ada")
    identity = support_desk_identity(world.store, member)
    assert (identity.account_id, identity.name, identity.email) == (member, "Ada", "desk@example.com")
    delete_account(world.store, world.clock, member, reason="bye")
    with refused(ErrorCode.UNAUTHORIZED):
        support_desk_identity(world.store, member)


# -- sessions --------------------------------------------------------------------------


def _family(token: str) -> UUID:
    parsed = parse_refresh_token(token)
    assert parsed is not None
    return parsed.family_id


def _log_in(world: World, email: str = "member@example.com") -> str:
    return str(log_in(world.store, world.clock, PlainHasher(), SECRET, email=email, password="abcd1234").refresh)


def test_refreshing_rotates_the_token_and_the_old_one_then_revokes_the_family_for_good(world: World) -> None:
    world.member()
    first = _log_in(world)
    world.later(minutes=31)
    second = str(refresh_session(world.store, world.clock, SECRET, first).refresh)
    assert second != first and second.split(".")[0] == first.split(".")[0], "the same family, a new secret"
    with refused(ErrorCode.UNAUTHORIZED):
        refresh_session(world.store, world.clock, SECRET, first)
    session = world.get(_family(first), Session)
    assert (session.revoked, session.revoked_reason) == (True, REUSE), "the refusal's revocation was saved"
    with refused(ErrorCode.UNAUTHORIZED):
        refresh_session(world.store, world.clock, SECRET, second)


def test_a_session_older_than_the_accounts_deletion_is_revoked_on_its_next_refresh(world: World) -> None:
    member = world.member()
    token = _log_in(world)
    world.later(hours=1)
    delete_account(world.store, world.clock, member, reason="bye")
    with refused(ErrorCode.UNAUTHORIZED):
        refresh_session(world.store, world.clock, SECRET, token)
    session = world.get(_family(token), Session)
    assert (session.revoked, session.revoked_reason) == (True, ACCOUNT_CLOSED)
