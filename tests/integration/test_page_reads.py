"""A page's reads, sent together (``read_many_async``): each statement's rows in its order, for one account only,
in one snapshot; on both stores, with the app's pool and without it."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar
from uuid import UUID, uuid4

import pytest

from config.settings import Settings
from eventlog.database import ViewDatabase, open_view_database
from eventlog.page_reads import CoalescedReads, Statement
from projections.catalogue import all_views
from projections.licences import LicencesView, licence_statements, with_devices
from projections.payments import PaymentsView, decoded, payment_statement
from projections.subscriptions import SubscriptionsView, by_licence, subscription_statement

pytestmark = pytest.mark.integration
T = TypeVar("T")

ME, OTHER = uuid4(), uuid4()
# Newest first: the lifetime one was created last. Devices: 0, 1 and 3 (registered out of id order).
ANNUAL, MONTHLY, LIFETIME, THEIRS = uuid4(), uuid4(), uuid4(), uuid4()


@pytest.fixture
def views(settings: Settings) -> Iterator[ViewDatabase]:
    db = open_view_database(settings.view_store_env)
    with db.transaction() as cursor:
        for view in (LicencesView(), PaymentsView(), SubscriptionsView()):
            for statement in view.schema():
                cursor.execute(statement)
        for licence, account, created in (
            (ANNUAL, ME, "2026-01-01T00:00:00+00:00"),
            (MONTHLY, ME, "2026-02-01T00:00:00+00:00"),
            (LIFETIME, ME, "2026-03-01T00:00:00+00:00"),
            (THEIRS, OTHER, "2026-04-01T00:00:00+00:00"),
        ):
            _licence(cursor, licence, account, created)
        for licence, device, at in (
            (MONTHLY, "m-1", "2026-02-02T00:00:00+00:00"),
            (LIFETIME, "z-first", "2026-03-02T00:00:00+00:00"),
            (LIFETIME, "a-second", "2026-03-03T00:00:00+00:00"),
            (LIFETIME, "b-third", "2026-03-03T00:00:00+00:00"),  # same moment: by device id
            (THEIRS, "theirs", "2026-04-02T00:00:00+00:00"),
        ):
            cursor.execute(
                "INSERT INTO licence_devices_view (user_licence_id, device_id, device_name, platform, registered_at, "
                "last_seen_at) VALUES (%(licence)s, %(device)s, %(device)s, 'win', %(at)s, %(at)s)",
                {"licence": str(licence), "device": device, "at": at},
            )
        for merchant, account, licence, state, at in (
            ("m-annual", ME, ANNUAL, "paid", "2026-01-01T00:00:00+00:00"),
            ("m-monthly-1", ME, MONTHLY, "paid", "2026-02-01T00:00:00+00:00"),
            ("m-monthly-2", ME, MONTHLY, "paid", "2026-03-01T00:00:00+00:00"),
            ("m-monthly-never", ME, MONTHLY, "ordered", "2026-03-05T00:00:00+00:00"),  # never paid: left out
            ("m-theirs", OTHER, THEIRS, "paid", "2026-04-01T00:00:00+00:00"),
        ):
            _payment(cursor, merchant, account, licence, state, at)
        for licence, account in ((MONTHLY, ME), (THEIRS, OTHER)):
            cursor.execute(
                "INSERT INTO subscriptions_view (subscription_id, user_licence_id, account_id, status, name, life, "
                "amount, currency, customer_uid, paid_until) VALUES (%(id)s, %(licence)s, %(account)s, 'active', "
                "'monthly', 1, 9900, 'KRW', 'c', '2026-04-01T00:00:00+00:00')",
                {"id": str(uuid4()), "licence": str(licence), "account": str(account)},
            )
    try:
        yield db
    finally:
        db.close()


def _licence(cursor: Any, licence: UUID, account: UUID, created: str) -> None:
    cursor.execute(
        "INSERT INTO licences_view (user_licence_id, account_id, licence_id, product_code, name, life, "
        "max_devices_count, state, licence_key, source, created_at) VALUES (%(id)s, %(account)s, 121, 'p', 'n', "
        "12, 3, 'active', %(key)s, 'purchase', %(created)s)",
        {"id": str(licence), "account": str(account), "key": f"key-{licence}", "created": created},
    )


def _payment(cursor: Any, merchant: str, account: UUID, licence: UUID, state: str, at: str) -> None:
    cursor.execute(
        "INSERT INTO payments_view (payment_id, merchant_uid, account_id, buyer_email, licence_id, user_licence_id, "
        "name, purchase_type, amount, original_amount, cancel_amount, currency, country_code, state, ordered_at, "
        "refunds, discount_factors) VALUES (%(merchant)s, %(merchant)s, %(account)s, 'a@example.com', 121, "
        "%(licence)s, 'n', 'new', 9000, 10000, 0, 'KRW', 'KR', %(state)s, %(at)s, %(refunds)s, '[]')",
        {
            "merchant": merchant,
            "account": str(account),
            "licence": str(licence),
            "state": state,
            "at": at,
            "refunds": json.dumps([{"amount": 100, "reason": "r", "refundedAt": None}]),
        },
    )


def _read(db: ViewDatabase, *statements: Statement, with_pool: bool = True) -> list[list[dict[str, Any]]]:
    async def server() -> list[list[dict[str, Any]]]:
        if not with_pool:  # a loop the app never started on: worker threads
            return await db.read_many_async(*statements)
        await db.open_async()
        try:
            return await db.read_many_async(*statements)
        finally:
            await db.close_async()

    return asyncio.run(server())


@pytest.mark.parametrize("with_pool", [True, False], ids=["app pool", "worker threads"])
def test_the_licence_list_reads_an_accounts_licences_devices_and_subscriptions_in_order(
    views: ViewDatabase, with_pool: bool
) -> None:
    licences, devices, subscriptions = _read(
        views, *licence_statements(ME), subscription_statement(ME), with_pool=with_pool
    )
    page = with_devices(licences, devices)
    assert [row["user_licence_id"] for row in page] == [str(LIFETIME), str(MONTHLY), str(ANNUAL)]
    assert [[device["device_id"] for device in row["devices"]] for row in page] == [
        ["z-first", "a-second", "b-third"],
        ["m-1"],
        [],
    ]
    assert list(by_licence(subscriptions)) == [str(MONTHLY)]


def test_a_licence_detail_reads_only_that_licence_its_payments_newest_first_and_its_subscription(
    views: ViewDatabase,
) -> None:
    licences, devices, payments, subscriptions = _read(
        views, *licence_statements(ME, MONTHLY), payment_statement(ME, MONTHLY), subscription_statement(ME, MONTHLY)
    )
    assert [row["user_licence_id"] for row in with_devices(licences, devices)] == [str(MONTHLY)]
    assert [device["device_id"] for device in devices] == ["m-1"]
    records = decoded(payments)
    assert [record["merchant_uid"] for record in records] == ["m-monthly-2", "m-monthly-1"]
    assert records[0]["refunds"] == [{"amount": 100, "reason": "r", "refundedAt": None}]
    assert [row["user_licence_id"] for row in subscriptions] == [str(MONTHLY)]

    licences, devices, payments, subscriptions = _read(
        views, *licence_statements(ME, ANNUAL), payment_statement(ME, ANNUAL), subscription_statement(ME, ANNUAL)
    )
    assert (len(licences), devices, [p["merchant_uid"] for p in payments], subscriptions) == (1, [], ["m-annual"], [])


def test_another_accounts_licence_reads_as_nothing_at_all(views: ViewDatabase) -> None:
    found = _read(
        views, *licence_statements(ME, THEIRS), payment_statement(ME, THEIRS), subscription_statement(ME, THEIRS)
    )
    assert found == [[], [], [], []]
    history = decoded(_read(views, payment_statement(ME))[0])
    assert [record["merchant_uid"] for record in history] == ["m-monthly-2", "m-monthly-1", "m-annual"]


def test_a_failed_statement_fails_the_read_and_leaves_the_pool_usable(views: ViewDatabase) -> None:
    async def server() -> list[list[dict[str, Any]]]:
        await views.open_async()
        try:
            with pytest.raises(Exception, match="no_such_table"):
                await views.read_many_async(payment_statement(ME), ("SELECT * FROM no_such_table", {}))
            return await views.read_many_async(*(payment_statement(ME) for _ in range(3)))
        finally:
            await views.close_async()

    assert [len(rows) for rows in asyncio.run(server())] == [3, 3, 3]


@pytest.mark.parametrize("with_pool", [True, False], ids=["app pool", "worker threads"])
def test_the_statements_of_one_read_see_one_snapshot(views: ViewDatabase, store_kind: str, with_pool: bool) -> None:
    """A commit landing between a read's statements is seen by none of them (PostgreSQL's READ COMMITTED
    would show it to the statements after it)."""
    if store_kind != "postgres":
        pytest.skip("SQLite runs a read's statements back to back on the loop: nothing can land between them")
    count = ("SELECT COUNT(*) AS n FROM licences_view", {})
    committed = threading.Event()

    def commit_meanwhile() -> None:
        with views.transaction() as cursor:
            _licence(cursor, uuid4(), OTHER, "2026-05-01T00:00:00+00:00")
        committed.set()

    writer = threading.Timer(0.2, commit_meanwhile)
    writer.start()
    first, _, last = _read(views, count, ("SELECT pg_sleep(0.6) IS NULL AS slept", {}), count, with_pool=with_pool)
    writer.join()
    assert committed.is_set()
    assert first == last == [{"n": 4}]
    with views.read() as cursor:  # the commit did land
        cursor.execute(*count)
        assert cursor.fetchone() == {"n": 5}


def test_the_loops_pool_only_reads(views: ViewDatabase, store_kind: str) -> None:
    if store_kind != "postgres":
        pytest.skip("SQLite reads on the loop in a transaction that is rolled back")
    with pytest.raises(Exception, match="syntax error"):  # a page read is a SELECT: a write cannot even be put in
        _read(views, ("DELETE FROM licences_view", {}))

    async def write_on_the_loops_pool() -> None:
        await views.open_async()
        try:
            async with views.read_async() as cursor:
                await cursor.execute("DELETE FROM licences_view")
        finally:
            await views.close_async()

    with pytest.raises(Exception, match="read-only transaction"):  # and its connections refuse writes anyway
        asyncio.run(write_on_the_loops_pool())
    assert len(_read(views, ("SELECT * FROM licences_view", {}))[0]) == 4


def test_statements_sharing_a_parameter_name_each_read_their_own_value(views: ViewDatabase) -> None:
    by_account = "SELECT licence_key FROM licences_view WHERE account_id = %(account)s ORDER BY licence_key"
    mine, theirs = _read(views, *((by_account, {"account": str(account)}) for account in (ME, OTHER)))
    assert len(mine) == 3 and theirs == [{"licence_key": f"key-{THEIRS}"}]


def test_every_view_column_is_of_a_type_a_page_read_carries_exactly(settings: Settings, store_kind: str) -> None:
    """PostgreSQL page reads come back as JSON (``as_one_query``): text, integers and booleans come back exactly as
    psycopg would give them, a date or a float would not; so the views keep to those types."""
    if store_kind != "postgres":
        pytest.skip("SQLite page reads are plain rows")
    db = open_view_database(settings.view_store_env)
    try:
        with db.transaction() as cursor:
            for view in all_views():
                for statement in view.schema():
                    cursor.execute(statement)
        with db.read() as cursor:
            cursor.execute(
                "SELECT table_name, column_name, data_type FROM information_schema.columns "
                "WHERE table_schema = current_schema() AND table_name IN (SELECT unnest(%(tables)s::text[]))",
                {"tables": [table for view in all_views() for table in view.tables]},
            )
            columns = cursor.fetchall()
    finally:
        db.close()
    assert len({row["table_name"] for row in columns}) == len([t for view in all_views() for t in view.tables])
    carried = {"text", "integer", "bigint", "boolean", "smallint"}
    assert [row for row in columns if row["data_type"] not in carried] == []


def _coalesced(views: ViewDatabase, pages: Callable[[CoalescedReads], Awaitable[T]]) -> tuple[T, CoalescedReads]:
    """``pages`` run on a loop of its own against a pool like the app's, through one CoalescedReads."""
    from psycopg_pool import AsyncConnectionPool

    async def server() -> tuple[T, CoalescedReads]:
        pool = AsyncConnectionPool(views.conninfo, min_size=1, max_size=5, open=False)  # type: ignore[attr-defined]
        await pool.open()
        try:
            reads = CoalescedReads(pool)
            return await pages(reads), reads
        finally:
            await pool.close()

    return asyncio.run(server())


def test_pages_asked_for_in_one_turn_go_out_as_one_query_each_answered_its_own_rows(
    views: ViewDatabase, store_kind: str
) -> None:
    if store_kind != "postgres":
        pytest.skip("SQLite reads each page on the loop itself, with no round trip to share")
    accounts = [ME, OTHER] * 10

    async def twenty_pages(reads: CoalescedReads) -> list[list[list[dict[str, Any]]]]:
        return await asyncio.gather(*(reads.read([*licence_statements(account)]) for account in accounts))

    answers, reads = _coalesced(views, twenty_pages)
    for account, (licences, devices) in zip(accounts, answers, strict=True):
        expected = [str(LIFETIME), str(MONTHLY), str(ANNUAL)] if account == ME else [str(THEIRS)]
        assert [row["user_licence_id"] for row in licences] == expected
        assert {device["user_licence_id"] for device in devices} <= set(expected)
    assert (reads.queries, reads.pages) == (1, 20)


def test_a_page_that_fails_fails_alone_and_a_page_given_up_on_leaves_the_others_their_answers(
    views: ViewDatabase, store_kind: str
) -> None:
    if store_kind != "postgres":
        pytest.skip("SQLite reads each page on the loop itself")
    divided = "SELECT count(*) / %(divisor)s AS share FROM licences_view"  # a page kind that fails for one value

    async def mixed(reads: CoalescedReads) -> list[Any]:
        pages = [
            reads.read([payment_statement(ME)]),
            reads.read([payment_statement(OTHER)]),
            reads.read([payment_statement(OTHER)]),  # given up on below
            reads.read([(divided, {"divisor": 2})]),
            reads.read([(divided, {"divisor": 0})]),
        ]
        asked = [asyncio.ensure_future(page) for page in pages]
        await asyncio.sleep(0)  # all five have asked
        asked[2].cancel()  # its request ran out of time
        return await asyncio.gather(*asked, return_exceptions=True)

    (mine, theirs, abandoned, halved, broken), reads = _coalesced(views, mixed)
    assert [row["merchant_uid"] for row in mine[0]] == ["m-monthly-2", "m-monthly-1", "m-annual"]
    assert [row["merchant_uid"] for row in theirs[0]] == ["m-theirs"]
    assert isinstance(abandoned, asyncio.CancelledError)
    assert halved == [[{"share": 2}]]
    assert "division by zero" in str(broken)
    # One query for the payment pages, one for the divided pages that failed, then each divided page alone.
    assert (reads.queries, reads.pages) == (2, 4)
