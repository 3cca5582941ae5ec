"""What the error reporter drops before sending."""

from __future__ import annotations

from integrations.observability import drop_ignored_transaction


def test_a_transaction_named_404_is_dropped() -> None:
    assert drop_ignored_transaction({"transaction": "404"}, {}) is None


def test_a_transaction_that_answered_404_is_dropped() -> None:
    event = {
        "transaction": "/web/unicornpro/v1/nope",
        "contexts": {"trace": {"data": {"http.response.status_code": 404}}},
    }
    assert drop_ignored_transaction(event, {}) is None


def test_other_transactions_are_kept() -> None:
    event = {"transaction": "health", "contexts": {"trace": {"data": {"http.response.status_code": 200}}}}
    assert drop_ignored_transaction(event, {}) is event
