"""The renewal pass reads the due subscriptions a page at a time, oldest due first, each exactly once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from uuid import UUID

from config.settings import Settings
from eventlog.database import open_view_database
from projections.subscriptions import SubscriptionsView, due_subscription_pages, due_subscriptions, next_page_query

NOW = datetime(2026, 12, 1, tzinfo=UTC)


def test_due_subscriptions_come_a_page_at_a_time_oldest_first_and_none_twice(settings: Settings) -> None:
    views = open_view_database(settings.view_store_env)
    try:
        with views.transaction() as cursor:
            for statement in SubscriptionsView().schema():
                cursor.execute(statement)
            # Seven due (three of them at the same moment, ordered by id among themselves) and one not yet due.
            moments = [NOW - timedelta(days=3)] * 3 + [NOW - timedelta(days=day) for day in (5, 2, 1, 0)]
            moments.append(NOW + timedelta(seconds=1))
            for number, due in enumerate(moments):
                cursor.execute(
                    "INSERT INTO subscriptions_view (subscription_id, user_licence_id, account_id, status, name, "
                    "life, amount, currency, customer_uid, paid_until, due_at) VALUES (%(id)s, %(licence)s, 'a', "
                    "'active', 'Pro', 1, 9900, 'KRW', 'c', %(due)s, %(due)s)",
                    {"id": str(UUID(int=7 - number)), "licence": str(UUID(int=100 + number)), "due": due.isoformat()},
                )

        pages = list(due_subscription_pages(views, NOW, page_size=3))

        assert [len(page) for page in pages] == [3, 3, 1]
        in_order = [subscription_id for page in pages for subscription_id in page]
        assert in_order[0] == UUID(int=4), "five days overdue comes first"
        assert in_order[1:4] == [UUID(int=5), UUID(int=6), UUID(int=7)], "the same moment is ordered by id"
        assert in_order[4:] == [UUID(int=3), UUID(int=2), UUID(int=1)]
        assert UUID(int=0) not in in_order, "not due yet"
        assert due_subscriptions(views, NOW) == in_order
    finally:
        views.close()


def test_a_later_page_is_one_range_of_the_due_index_on_postgresql(settings: Settings) -> None:
    """Each page costs the same however many are due: PostgreSQL starts the page's index scan where the last
    one ended instead of reading the index from its start and filtering (which made a pass grow with N²)."""
    if settings.view_store_env.get("PERSISTENCE_MODULE") != "eventsourcing.postgres":
        return  # SQLite plans its own way; the pages' order is checked above on both stores
    views = open_view_database(settings.view_store_env)
    try:
        with views.transaction() as cursor:
            for statement in SubscriptionsView().schema():
                cursor.execute(statement)
            for number in range(3000):
                cursor.execute(
                    "INSERT INTO subscriptions_view (subscription_id, user_licence_id, account_id, status, name, "
                    "life, amount, currency, customer_uid, paid_until, due_at) VALUES (%(id)s, %(licence)s, 'a', "
                    "'active', 'Pro', 1, 9900, 'KRW', 'c', %(due)s, %(due)s)",
                    {
                        "id": str(UUID(int=number)),
                        "licence": str(UUID(int=10_000 + number)),
                        "due": (NOW - timedelta(seconds=number // 10)).isoformat(),
                    },
                )
            cursor.execute("ANALYZE subscriptions_view")
        statement, params = next_page_query(NOW, after=((NOW - timedelta(seconds=5)).isoformat(), str(UUID(int=55))))
        with views.read() as cursor:
            cursor.execute("EXPLAIN (FORMAT JSON) " + statement, params)
            plan = cursor.fetchone()

        assert plan is not None
        scan = plan["QUERY PLAN"][0]["Plan"]["Plans"][0]
        assert scan["Index Name"] == "subscriptions_view_due_order"
        assert "subscription_id" in scan["Index Cond"], "the previous page's end is where the scan starts"
        assert "Filter" not in scan
    finally:
        views.close()
