"""Small helpers the tests share: an account with test defaults, a projector in a thread."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

from config.settings import Settings
from domain.accounts.registration import Registered, register_account
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
