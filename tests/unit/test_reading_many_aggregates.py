"""Several aggregates read at once (the renewal pass's reads) load exactly as one read each does."""

from __future__ import annotations

from uuid import uuid4

from config.settings import Settings
from domain.store import Storefront
from tests.support import START, register


def test_many_aggregates_read_at_once_load_as_one_read_each_does(settings: Settings) -> None:
    store = Storefront(settings.event_store_env)
    try:
        ann = store.repository.get(register(store, "ann@example.com").account_id)
        ann.confirm_email("ann@example.com", START)
        store.save(ann)
        bob_id = register(store, "bob@example.com").account_id
        nobody = uuid4()

        found = store.get_many([ann.id, bob_id, nobody, ann.id])

        assert set(found) == {ann.id, bob_id}, "an id nobody recorded is left out, a repeated one read once"
        for account_id, account in found.items():
            one = store.repository.get(account_id)
            assert (account.version, account.email, account.email_confirmed) == (
                one.version,
                one.email,
                one.email_confirmed,
            )
        assert found[ann.id].email_confirmed and not found[bob_id].email_confirmed
    finally:
        store.close()
