"""Small helpers the tests share: an account with test defaults, a projector in a thread."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from uuid import UUID

from fastapi.testclient import TestClient

from bootstrap import Services
from config.settings import Settings
from domain.accounts.account import Account
from domain.accounts.claims import claim_link_token
from domain.accounts.registration import Registered, register_account
from domain.accounts.tokens import CONFIRM_EMAIL, CONFIRMATION_LINK_LIFETIME, sign_link
from domain.store import Storefront
from events.values import Language
from projections.catalogue import all_views
from projections.database import ViewDatabase, open_view_database
from projections.runner import Projector
from tests.fakes import ManualClock, PlainHasher

START = datetime(2026, 11, 1, 0, 0, tzinfo=UTC)


def register(store: Storefront, email: str, clock: ManualClock | None = None) -> Registered:
    """Register an account with test defaults."""
    return register_account(
        store,
        clock or ManualClock(START),
        PlainHasher(),
        email=email,
        password="abcd1234",
        language=Language.KO,
        marketing_push_enabled=False,
    )


@contextmanager
def running_projector(settings: Settings) -> Iterator[ViewDatabase]:
    """A projector following the log in a thread, for as long as the block runs."""
    log_app = Storefront(settings.event_store_env)
    db = open_view_database(settings.view_store_env)
    projector = Projector(log_app, db, all_views(), poll_interval=0.02)
    projector.setup()
    stop = threading.Event()
    thread = threading.Thread(target=projector.run, args=(stop,), daemon=True)
    thread.start()
    try:
        yield db
    finally:
        stop.set()
        thread.join(timeout=10)
        db.close()
        log_app.close()


def confirm_address(client: TestClient, services: Services, account_id: str, email: str, pw: str = "abcd1234") -> None:
    """What the registrant does with the mail that follows registration: open its link (signed as the mail signs
    it). A member's address is confirmed; a guest's account is claimed with the password chosen at registration."""
    account: Account = services.store.repository.get(UUID(account_id))
    secret, now = services.settings.auth_secret, services.clock.now()
    if account.is_guest:
        claim_id = list(account.pending_claims)[-1]
        token = claim_link_token(secret, account.id, account.email, claim_id, now)
        claimed = client.post("/web/unicornpro/v1/auth/claim", json={"t": token, "pw": pw})
        assert claimed.status_code == 200, claimed.text
        return
    token = sign_link(secret, CONFIRM_EMAIL, account.id, now, CONFIRMATION_LINK_LIFETIME, email=email.lower())
    opened = client.get(f"/web/unicornpro/v1/accounts/confirm?t={token}", follow_redirects=False)
    assert opened.status_code == 303 and "errorCode" not in opened.headers["location"], opened.headers


def register_confirmed(
    client: TestClient, services: Services, email: str, pw: str = "abcd1234", language: str = "ko"
) -> str:
    """A customer who registers through the API and opens the mailed link; their account id."""
    answer = client.post("/web/unicornpro/v1/accounts", json={"email": email, "pw": pw, "language": language})
    assert answer.status_code == 200, answer.text
    account_id = str(answer.json()["userId"])
    confirm_address(client, services, account_id, email, pw)
    return account_id
