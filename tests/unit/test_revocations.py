"""Which events end access tokens, and the list that answers a token from memory."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from uuid import uuid4

from domain.accounts.auth import log_in, log_out
from domain.accounts.profile import delete_account
from domain.accounts.revocations import KEPT_FOR, REVOKING_TOPICS, Ends, Revocation, RevocationList, revocation_of
from domain.accounts.tokens import AccessClaims
from tests.fakes import PlainHasher
from tests.unit.billing_world import World

AT = datetime(2026, 11, 26, 10, 0, tzinfo=UTC)


def claims(account: object, session: object, started: datetime) -> AccessClaims:
    return AccessClaims(account, 1, session, started.timestamp())  # type: ignore[arg-type]


def test_a_logout_a_reuse_and_every_change_of_credentials_or_deletion_revoke(world: World) -> None:
    member = world.member()
    session = log_in(world.store, world.clock, PlainHasher(), "s" * 32, email="member@example.com", password="abcd1234")
    log_out(world.store, world.clock, str(session.refresh))
    delete_account(world.store, world.clock, PlainHasher(), member, password="abcd1234", reason="")
    recorded = [
        world.store.mapper.to_domain_event(item)
        for item in world.store.recorder.select_notifications(start=1, limit=1000)
    ]
    found = [revocation_of(event) for event in recorded]
    revoked = [(each.ends, each.subject) for each in found if each is not None]
    assert revoked == [(Ends.SESSION, session.refresh.family_id), (Ends.ACCOUNT, member)]
    assert {type(event).TOPIC for event, each in zip(recorded, found, strict=True) if each} <= REVOKING_TOPICS


def test_a_token_ends_with_its_session_or_with_a_change_after_its_login() -> None:
    account, session, other_session = uuid4(), uuid4(), uuid4()
    revoked = RevocationList()
    assert not revoked.ends(claims(account, session, AT))

    revoked.note(Revocation(Ends.SESSION, session, (AT + timedelta(minutes=1)).timestamp()))
    assert revoked.ends(claims(account, session, AT))
    assert not revoked.ends(claims(account, other_session, AT)), "another session of the account goes on"

    revoked.note(Revocation(Ends.ACCOUNT, account, (AT + timedelta(minutes=5)).timestamp()))
    assert revoked.ends(claims(account, other_session, AT + timedelta(minutes=4, seconds=59)))
    assert not revoked.ends(claims(account, other_session, AT + timedelta(minutes=5))), "a login at the change"
    assert not revoked.ends(claims(account, other_session, AT + timedelta(minutes=6))), "a login after it"


def test_noting_twice_or_out_of_order_keeps_the_latest_and_old_entries_are_forgotten() -> None:
    account = uuid4()
    revoked = RevocationList()
    later, earlier = (AT + timedelta(minutes=5)).timestamp(), AT.timestamp()
    revoked.note(Revocation(Ends.ACCOUNT, account, later))
    revoked.note(Revocation(Ends.ACCOUNT, account, earlier))
    assert revoked.ends(claims(account, uuid4(), AT + timedelta(minutes=1)))

    revoked.forget_before(later + KEPT_FOR - 1)
    assert len(revoked) == 1, "kept while a token it ends could still be alive"
    revoked.forget_before(later + KEPT_FOR + 1)
    assert len(revoked) == 0
