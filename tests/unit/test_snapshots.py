"""Long-lived aggregates are snapshotted, and load the same from a snapshot as from events."""

from __future__ import annotations

from domain.accounts.account import Account
from domain.store import Storefront
from tests.support import register


def test_an_account_is_snapshotted_at_its_interval_and_loads_identically() -> None:
    class QuickSnapshots(Storefront):
        name = Storefront.name
        snapshotting_intervals = {Account: 1}

    store = QuickSnapshots({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": ":memory:"})
    account_id = register(store, "snap@example.com").account_id
    assert store.snapshots is not None
    snapshots = list(store.snapshots.get(account_id))
    assert [s.originator_version for s in snapshots] == [1]
    loaded = store.repository.get(account_id)
    assert (loaded.email, loaded.email_confirmed) == ("snap@example.com", False)


def test_the_storefront_declares_snapshotting_for_accounts() -> None:
    assert Storefront.snapshotting_intervals[Account] > 0
