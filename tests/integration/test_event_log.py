"""The event log on each store: atomic multi-aggregate saves, uniqueness, racing writers."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from eventsourcing.persistence import IntegrityError

from config.settings import Settings
from domain.accounts.account import Account, EmailIndex
from domain.errors import DomainError, ErrorCode
from domain.store import Storefront
from events.values import Language
from tests.support import START, register

pytestmark = pytest.mark.integration


def test_a_registration_records_the_account_and_its_email_claim_together(settings: Settings) -> None:
    store = Storefront(settings.event_store_env)
    registered = register(store, "Mina@Example.com")
    topics = [n.topic for n in store.recorder.select_notifications(start=1, limit=10)]
    assert topics == ["account.Registered", "account.EmailClaimed"]
    assert store.repository.get(registered.account_id).email == "mina@example.com"
    assert store.repository.get(EmailIndex.id_for("MINA@example.com")).account_id == registered.account_id
    assert registered.notification_id == store.max_notification_id()


def test_when_one_aggregate_of_a_save_conflicts_nothing_of_the_save_is_recorded(settings: Settings) -> None:
    store = Storefront(settings.event_store_env)
    register(store, "taken@example.com")
    head = store.max_notification_id()
    intruder = Account.register(
        email="taken@example.com",
        password_hash="x",
        language=Language.EN,
        marketing_push_enabled=False,
        at=START,
    )
    duplicate_claim = EmailIndex.claim(email="taken@example.com", account_id=intruder.id, at=START)
    with pytest.raises(IntegrityError):
        store.save(intruder, duplicate_claim)
    assert store.max_notification_id() == head
    with pytest.raises(Exception, match="not found"):
        store.repository.get(intruder.id)


def test_an_email_already_registered_is_refused_with_minus_402(settings: Settings) -> None:
    store = Storefront(settings.event_store_env)
    register(store, "once@example.com")
    with pytest.raises(DomainError) as refused:
        register(store, " ONCE@example.com ")
    assert refused.value.code is ErrorCode.EMAIL_ALREADY_REGISTERED


def test_eight_racing_registrations_of_one_address_make_exactly_one_account(settings: Settings) -> None:
    stores = [Storefront(settings.event_store_env) for _ in range(8)]

    def attempt(store: Storefront) -> str:
        try:
            register(store, "race@example.com")
            return "registered"
        except DomainError as error:
            return str(error.code.value)

    with ThreadPoolExecutor(max_workers=8) as pool:
        outcomes = list(pool.map(attempt, stores))
    assert sorted(outcomes) == ["-402"] * 7 + ["registered"]
    registrations = [
        n for n in stores[0].recorder.select_notifications(start=1, limit=100) if n.topic == "account.Registered"
    ]
    assert len(registrations) == 1


def test_processes_opening_a_new_log_together_all_open_it(settings: Settings) -> None:
    # The API, the projector and the workers start together on a new database; each creates the log's tables and
    # replaces its insert function as it opens, and on PostgreSQL two at once failed with "tuple concurrently
    # updated". Eight openers started at one moment stand in for the processes.
    openers = 8
    start = threading.Barrier(openers)

    def open_the_log() -> int:
        start.wait()
        log = Storefront(settings.event_store_env)
        try:
            return log.max_notification_id()
        finally:
            log.close()

    with ThreadPoolExecutor(openers) as pool:
        heads = list(pool.map(lambda _: open_the_log(), range(openers)))
    assert heads == [0] * openers
