"""Store purchases for support, finance and the reconciliation pass: each store subscription (its store, original
transaction id, state, paid time and when the store was last heard of), and each store charge recorded as a payment
of ours with the store's commission (finance's store ledger, counted apart from the money PortOne moves)."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from functools import singledispatchmethod
from typing import Any
from uuid import UUID

from domain.business_time import business_day
from eventlog.database import ViewCursor, ViewDatabase
from eventlog.page_reads import Statement
from events.app_stores import (
    StoreAutoRenewChanged,
    StoreBillingRetryStarted,
    StoreGracePeriodStarted,
    StoreSubscriptionChecked,
    StoreSubscriptionExpired,
    StoreSubscriptionLinked,
    StoreSubscriptionRefunded,
    StoreSubscriptionRenewed,
    StoreSubscriptionRevoked,
)
from events.payments import PaymentOrdered, StorePurchaseVerified, StoreRefunded
from projections.reports import utc_text
from projections.view import View

STORES = ("app-store", "google-play")
RUNNING = ("active", "grace-period", "billing-retry")
RETRY_EVERY = timedelta(days=1)  # a subscription in billing retry is asked for again a day after it was last heard of


class AppStoresView(View):
    """``store_subscriptions_view`` (one row per store purchase) and ``store_payments_view`` (one per store charge)."""

    name = "app_stores"
    tables = ("store_subscriptions_view", "store_payments_view")

    def schema(self) -> list[str]:
        return [
            "CREATE TABLE IF NOT EXISTS store_subscriptions_view ("
            "subscription_id TEXT PRIMARY KEY, store TEXT NOT NULL, original_transaction_id TEXT NOT NULL, "
            "purchase_token TEXT, product_id TEXT NOT NULL, licence_id INTEGER NOT NULL, account_id TEXT NOT NULL, "
            "user_licence_id TEXT NOT NULL, environment TEXT NOT NULL, renewing INTEGER NOT NULL, state TEXT NOT NULL, "
            "expires_at TEXT, grace_until TEXT, due_at TEXT, heard_at TEXT NOT NULL, linked_at TEXT NOT NULL, "
            "linked_by TEXT NOT NULL, renewals INTEGER NOT NULL, last_reason TEXT)",
            "CREATE INDEX IF NOT EXISTS store_subscriptions_due ON store_subscriptions_view (state, due_at)",
            "CREATE INDEX IF NOT EXISTS store_subscriptions_account ON store_subscriptions_view (account_id)",
            "CREATE TABLE IF NOT EXISTS store_payments_view ("
            "payment_id TEXT PRIMARY KEY, merchant_uid TEXT NOT NULL, account_id TEXT, user_licence_id TEXT, "
            "product_code TEXT NOT NULL, licence_id INTEGER NOT NULL, currency TEXT NOT NULL, amount BIGINT NOT NULL, "
            "store TEXT, transaction_id TEXT, original_transaction_id TEXT, paid_at TEXT, day TEXT, "
            "commission BIGINT, commission_rate TEXT, refunded BIGINT NOT NULL, refunded_at TEXT, refund_day TEXT)",
            "CREATE INDEX IF NOT EXISTS store_payments_day ON store_payments_view (day)",
            "CREATE INDEX IF NOT EXISTS store_payments_refund_day ON store_payments_view (refund_day)",
            "CREATE INDEX IF NOT EXISTS store_payments_account ON store_payments_view (account_id)",
        ]

    @singledispatchmethod
    def apply(self, event: Any, cursor: ViewCursor) -> None:
        return None

    @apply.register
    def _linked(self, event: StoreSubscriptionLinked, cursor: ViewCursor) -> None:
        at = utc_text(event.timestamp)
        expires = utc_text(event.expires_at) if event.expires_at else None
        cursor.execute(
            "INSERT INTO store_subscriptions_view (subscription_id, store, original_transaction_id, purchase_token, "
            "product_id, licence_id, account_id, user_licence_id, environment, renewing, state, expires_at, "
            "due_at, heard_at, linked_at, linked_by, renewals) VALUES (%(id)s, %(store)s, %(original)s, %(token)s, "
            "%(product)s, %(licence)s, %(account)s, %(user_licence)s, %(environment)s, %(renewing)s, 'active', "
            "%(expires)s, %(expires)s, %(at)s, %(at)s, %(by)s, 0) ON CONFLICT (subscription_id) DO NOTHING",
            {
                "id": str(event.originator_id),
                "store": event.store,
                "original": event.original_transaction_id,
                "token": event.purchase_token,
                "product": event.product_id,
                "licence": event.licence_id,
                "account": str(event.account_id),
                "user_licence": str(event.user_licence_id),
                "environment": event.environment,
                "renewing": 1 if event.renewing else 0,
                "expires": expires,
                "at": at,
                "by": event.linked_by,
            },
        )

    def _heard(self, cursor: ViewCursor, subscription_id: UUID, at: datetime, **columns: Any) -> None:
        changes = {"heard_at": utc_text(at), **columns}
        assignments = ", ".join(f"{column} = %({column})s" for column in changes)
        cursor.execute(
            f"UPDATE store_subscriptions_view SET {assignments} WHERE subscription_id = %(id)s",
            {**changes, "id": str(subscription_id)},
        )

    @apply.register
    def _renewed(self, event: StoreSubscriptionRenewed, cursor: ViewCursor) -> None:
        expires = utc_text(event.expires_at)
        cursor.execute(
            "UPDATE store_subscriptions_view SET renewals = renewals + 1 WHERE subscription_id = %(id)s",
            {"id": str(event.originator_id)},
        )
        self._heard(
            cursor,
            event.originator_id,
            event.timestamp,
            state="active",
            expires_at=expires,
            grace_until=None,
            due_at=expires,
            last_reason="renewed",
        )

    @apply.register
    def _grace(self, event: StoreGracePeriodStarted, cursor: ViewCursor) -> None:
        until = utc_text(event.grace_until)
        self._heard(
            cursor,
            event.originator_id,
            event.timestamp,
            state="grace-period",
            grace_until=until,
            due_at=until,
            last_reason=event.reason,
        )

    @apply.register
    def _retry(self, event: StoreBillingRetryStarted, cursor: ViewCursor) -> None:
        self._heard(
            cursor,
            event.originator_id,
            event.timestamp,
            state="billing-retry",
            grace_until=None,
            due_at=utc_text(event.timestamp + RETRY_EVERY),
            last_reason=event.reason,
        )

    @apply.register
    def _expired(self, event: StoreSubscriptionExpired, cursor: ViewCursor) -> None:
        self._heard(
            cursor, event.originator_id, event.timestamp, state="expired", due_at=None, last_reason=event.reason
        )

    @apply.register
    def _refunded(self, event: StoreSubscriptionRefunded, cursor: ViewCursor) -> None:
        if event.revoked:
            self._heard(cursor, event.originator_id, event.timestamp, state="refunded", due_at=None)
        else:
            self._heard(cursor, event.originator_id, event.timestamp, last_reason=event.reason)

    @apply.register
    def _revoked(self, event: StoreSubscriptionRevoked, cursor: ViewCursor) -> None:
        self._heard(
            cursor, event.originator_id, event.timestamp, state="revoked", due_at=None, last_reason=event.reason
        )

    @apply.register
    def _auto_renew(self, event: StoreAutoRenewChanged, cursor: ViewCursor) -> None:
        self._heard(cursor, event.originator_id, event.timestamp, renewing=1 if event.renewing else 0)

    @apply.register
    def _checked(self, event: StoreSubscriptionChecked, cursor: ViewCursor) -> None:
        cursor.execute(
            "SELECT state FROM store_subscriptions_view WHERE subscription_id = %(id)s",
            {"id": str(event.originator_id)},
        )
        row = cursor.fetchone()
        if row is not None and row["state"] == "billing-retry":
            self._heard(cursor, event.originator_id, event.checked_at, due_at=utc_text(event.checked_at + RETRY_EVERY))
        else:
            self._heard(cursor, event.originator_id, event.checked_at)

    # Store charges recorded as payments of ours.

    @apply.register
    def _ordered(self, event: PaymentOrdered, cursor: ViewCursor) -> None:
        if event.purchase_type not in STORES:
            return
        cursor.execute(
            "INSERT INTO store_payments_view (payment_id, merchant_uid, account_id, user_licence_id, product_code, "
            "licence_id, currency, amount, refunded) VALUES (%(id)s, %(uid)s, %(account)s, %(licence)s, "
            "%(product)s, %(licence_id)s, %(currency)s, %(amount)s, 0) ON CONFLICT (payment_id) DO NOTHING",
            {
                "id": str(event.originator_id),
                "uid": event.merchant_uid,
                "account": str(event.account_id) if event.account_id else None,
                "licence": str(event.user_licence_id) if event.user_licence_id else None,
                "product": event.product_code,
                "licence_id": event.licence_id,
                "currency": event.currency.value,
                "amount": event.amount,
            },
        )

    @apply.register
    def _verified(self, event: StorePurchaseVerified, cursor: ViewCursor) -> None:
        cursor.execute(
            "UPDATE store_payments_view SET store = %(store)s, transaction_id = %(transaction)s, "
            "original_transaction_id = %(original)s, paid_at = %(paid_at)s, day = %(day)s, "
            "commission = %(commission)s, commission_rate = %(rate)s WHERE payment_id = %(id)s",
            {
                "id": str(event.originator_id),
                "store": event.store,
                "transaction": event.transaction_id,
                "original": event.original_transaction_id,
                "paid_at": utc_text(event.paid_at),
                "day": business_day(event.paid_at).isoformat(),
                "commission": event.commission,
                "rate": str(event.commission_rate),
            },
        )

    @apply.register
    def _store_refunded(self, event: StoreRefunded, cursor: ViewCursor) -> None:
        cursor.execute(
            "UPDATE store_payments_view SET refunded = %(total)s, refunded_at = %(at)s, refund_day = %(day)s "
            "WHERE payment_id = %(id)s",
            {
                "id": str(event.originator_id),
                "total": event.cancel_amount,
                "at": utc_text(event.refunded_at),
                "day": business_day(event.refunded_at).isoformat(),
            },
        )


def due_store_subscriptions(db: ViewDatabase, now: datetime, after: timedelta) -> list[dict[str, Any]]:
    """Store subscriptions to ask the store about: still running by our record, their paid time (grace, retry day)
    over for longer than ``after``, and nothing heard of them since (a notification was lost), oldest first."""
    with db.read() as cursor:
        cursor.execute(
            "SELECT * FROM store_subscriptions_view WHERE state IN ('active', 'grace-period', 'billing-retry') "
            "AND due_at IS NOT NULL AND due_at <= %(cutoff)s AND heard_at <= due_at ORDER BY due_at, subscription_id",
            {"cutoff": utc_text(now - after)},
        )
        return list(cursor.fetchall())


def store_subscriptions_statement(account_id: UUID) -> Statement:
    """An account's store purchases, newest first."""
    return (
        "SELECT * FROM store_subscriptions_view WHERE account_id = %(account)s ORDER BY linked_at DESC",
        {"account": str(account_id)},
    )


def store_subscriptions_of(db: ViewDatabase, account_id: UUID) -> list[dict[str, Any]]:
    """An account's store purchases, newest first."""
    with db.read() as cursor:
        cursor.execute(*store_subscriptions_statement(account_id))
        return list(cursor.fetchall())


def store_payments_of(db: ViewDatabase, account_id: UUID) -> list[dict[str, Any]]:
    """An account's store charges, newest first."""
    with db.read() as cursor:
        cursor.execute(
            "SELECT * FROM store_payments_view WHERE account_id = %(account)s AND store IS NOT NULL "
            "ORDER BY paid_at DESC, merchant_uid",
            {"account": str(account_id)},
        )
        return list(cursor.fetchall())


def store_ledger(db: ViewDatabase, since: date, until: date) -> list[dict[str, Any]]:
    """Store revenue by business day, store and currency for days in ``[since, until)``: what customers paid the
    store, the store's commission, what the store gave back (refunds, on their day, the commission on them returned)
    and what the store owes us of it all (net). Amounts in minor units."""
    bounds = {"since": since.isoformat(), "until": until.isoformat()}
    with db.read() as cursor:
        cursor.execute(
            "SELECT day, store, currency, SUM(amount) AS revenue, SUM(commission) AS commission, "
            "COUNT(*) AS payments FROM store_payments_view WHERE store IS NOT NULL AND day >= %(since)s "
            "AND day < %(until)s GROUP BY day, store, currency",
            bounds,
        )
        paid = cursor.fetchall()
        cursor.execute(
            "SELECT refund_day AS day, store, currency, SUM(refunded) AS refunds, COUNT(*) AS refunded, "
            "SUM(commission) AS refunded_commission "
            "FROM store_payments_view WHERE refund_day IS NOT NULL AND refund_day >= %(since)s "
            "AND refund_day < %(until)s GROUP BY refund_day, store, currency",
            bounds,
        )
        refunds = cursor.fetchall()
    rows: dict[tuple[str, str, str], dict[str, Any]] = {}
    for row in paid:
        key = (row["day"], row["store"], row["currency"])
        rows[key] = {
            "day": row["day"],
            "store": row["store"],
            "currency": row["currency"],
            "revenue": int(row["revenue"]),
            "commission": int(row["commission"] or 0),
            "payments": int(row["payments"]),
            "refunds": 0,
            "refunded": 0,
            "commission_returned": 0,
        }
    for row in refunds:
        key = (row["day"], row["store"], row["currency"])
        entry = rows.setdefault(
            key,
            {"day": row["day"], "store": row["store"], "currency": row["currency"], "revenue": 0, "commission": 0,
             "payments": 0, "refunds": 0, "refunded": 0, "commission_returned": 0},
        )  # fmt: skip
        entry["refunds"] = int(row["refunds"])
        entry["refunded"] = int(row["refunded"])
        entry["commission_returned"] = int(row["refunded_commission"] or 0)
    for entry in rows.values():
        # A store refunds the whole price and takes back what it paid us of it: its commission comes back with it.
        entry["net"] = entry["revenue"] - entry["commission"] - entry["refunds"] + entry["commission_returned"]
    return [rows[key] for key in sorted(rows)]
