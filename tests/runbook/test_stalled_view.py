"""Runbook, "A stalled view": the operator sees which view stalled, where and why with `python -m projections
stalls`, and once the fix is deployed the view resumes from where it stopped and the list is empty again."""

from __future__ import annotations

import threading

import pytest

from config.settings import Settings
from domain.store import Storefront
from eventlog.database import open_view_database
from eventlog.tracking import positions
from projections import runner
from projections.accounts import AccountsView
from projections.runner import Projector
from tests.faults.test_poison_event import NOT_YET, POISON, FragileView, _until
from tests.runbook.conftest import Operator
from tests.support import register

pytestmark = pytest.mark.integration


def test_a_stalled_view_is_listed_with_its_error_and_resumes_once_fixed(
    settings: Settings, store: Storefront, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runner, "FIRST_RETRY_SECONDS", 0.05)
    monkeypatch.setattr(runner, "LONGEST_RETRY_SECONDS", 0.4)
    FragileView.broken, FragileView.attempts = True, 0
    for address in ("before@example.com", POISON, "after@example.com"):
        register(store, address)
    db = open_view_database(settings.view_store_env)
    projector = Projector(store, db, [AccountsView(), FragileView()], poll_interval=0.02)
    projector.setup()
    stop = threading.Event()
    thread = threading.Thread(target=projector.run, args=(stop,), daemon=True)
    thread.start()
    operator = Operator(settings)
    try:
        _until(lambda: projector.stalls.get("fragile", NOT_YET).attempts >= 2, "the fragile view stalled")
        stalled_at = positions(db, store.name)["fragile"]

        said = operator.run("projections", "stalls", expect=1)
        assert said.startswith(f"fragile: stalled after {stalled_at} since ")
        assert "ValueError: this view cannot handle that address (yet)" in said
        assert "accounts" not in said  # the other views keep going

        FragileView.broken = False  # the fix is deployed (in production: a new release, the projector restarted)
        _until(lambda: positions(db, store.name)["fragile"] == store.max_notification_id(), "the view resumed")
        assert operator.run("projections", "stalls") == "no follower is stalled\n"
    finally:
        stop.set()
        thread.join(timeout=10)
        db.close()
