"""The payments view: purchase history records, and the index of virtual accounts awaiting deposit."""

from __future__ import annotations

import json
from datetime import datetime
from functools import singledispatchmethod
from typing import Any
from uuid import UUID

from eventlog.database import ViewCursor, ViewDatabase
from eventlog.page_reads import Statement
from events.licences import LicenceGranted, LicenceReserved, LicenceTransferred
from events.payments import (
    AppStorePurchaseRecorded,
    FirstChargeOrdered,
    PaymentCancelled,
    PaymentFailed,
    PaymentGivenBack,
    PaymentOrdered,
    PaymentRefunded,
    PaymentReserved,
    PaymentSucceeded,
    RefundReleased,
    RefundReserved,
    StorePurchaseVerified,
    StoreRefunded,
    UpgradeOrdered,
)
from projections.view import View

_COLUMNS = (
    "payment_id",
    "merchant_uid",
    "account_id",
    "buyer_email",
    "licence_id",
    "user_licence_id",
    "name",
    "purchase_type",
    "amount",
    "original_amount",
    "cancel_amount",
    "currency",
    "country_code",
    "state",
    "imp_uid",
    "pay_method",
    "pg_provider",
    "ordered_at",
    "paid_at",
    "failed_at",
    "fail_reason",
    "receipt_url",
    "card_name",
    "card_number",
    "bank_name",
    "vbank_code",
    "vbank_name",
    "vbank_num",
    "vbank_holder",
    "vbank_date",
    "vbank_issued_at",
    "refunds",
    "discount_factors",
    "coupon_code",
    "apple_transaction_id",
    "upgrade_credit",
    "catalogue_version",
    "pending",
    "pending_since",
    "give_back",
)

# What money of a payment is in flight at the gateway, waiting for its outcome to be recorded (``pending``): a
# first charge ordered, a refund reserved, or a called-off payment's money owed back. The pass that settles pending
# payments reads these (``pending_payments``).
FIRST_CHARGE = "first-charge"
REFUND = "refund"
GIVE_BACK = "give-back"


class PaymentsView(View):
    """One row per merchantUid, with every payment-record field of the spec."""

    name = "payments"
    tables = ("payments_view",)
    # 3: coupon codes (coupons) and App Store ids with upgrade credits (upgrades); 4: both; 5: catalogue versions;
    # 6: money pending at the gateway, and who made each refund
    version = 6

    def schema(self) -> list[str]:
        return [
            "CREATE TABLE IF NOT EXISTS payments_view ("
            "payment_id TEXT PRIMARY KEY, merchant_uid TEXT NOT NULL UNIQUE, account_id TEXT, "
            "buyer_email TEXT NOT NULL, licence_id INTEGER NOT NULL, "
            "user_licence_id TEXT, name TEXT NOT NULL, purchase_type TEXT NOT NULL, amount BIGINT NOT NULL, "
            "original_amount BIGINT NOT NULL, cancel_amount BIGINT NOT NULL, currency TEXT NOT NULL, "
            "country_code TEXT NOT NULL, state TEXT NOT NULL, imp_uid TEXT, pay_method TEXT, pg_provider TEXT, "
            "ordered_at TEXT NOT NULL, paid_at TEXT, failed_at TEXT, fail_reason TEXT, receipt_url TEXT, "
            "card_name TEXT, card_number TEXT, bank_name TEXT, vbank_code TEXT, vbank_name TEXT, vbank_num TEXT, "
            "vbank_holder TEXT, vbank_date TEXT, vbank_issued_at TEXT, refunds TEXT NOT NULL, "
            "discount_factors TEXT NOT NULL, coupon_code TEXT, apple_transaction_id TEXT, upgrade_credit BIGINT, "
            "catalogue_version INTEGER, pending TEXT, pending_since TEXT, give_back BIGINT)",
            "CREATE INDEX IF NOT EXISTS payments_view_account ON payments_view (account_id)",
            "CREATE INDEX IF NOT EXISTS payments_view_pending ON payments_view (pending_since)",
            "CREATE INDEX IF NOT EXISTS payments_view_deadline ON payments_view (state, vbank_date)",
        ]

    @singledispatchmethod
    def apply(self, event: Any, cursor: ViewCursor) -> None:
        return None

    @apply.register
    def _ordered(self, event: PaymentOrdered, cursor: ViewCursor) -> None:
        row: dict[str, Any] = dict.fromkeys(_COLUMNS)
        row.update(
            payment_id=str(event.originator_id),
            merchant_uid=event.merchant_uid,
            account_id=str(event.account_id) if event.account_id else None,
            buyer_email=event.buyer_email,
            licence_id=event.licence_id,
            name=event.name,
            purchase_type=event.purchase_type,
            amount=event.amount,
            original_amount=event.original_amount,
            cancel_amount=0,
            currency=event.currency.value,
            country_code=event.country_code,
            state="ordered",
            ordered_at=event.timestamp.isoformat(),
            refunds="[]",
            user_licence_id=str(event.user_licence_id) if event.user_licence_id else None,
            coupon_code=event.coupon_code,
            catalogue_version=event.catalogue_version,
            discount_factors=json.dumps(
                [{"type": item["type"], "factor": str(item["factor"])} for item in event.discount_factors]
            ),
        )
        columns = ", ".join(_COLUMNS)
        values = ", ".join(f"%({column})s" for column in _COLUMNS)
        cursor.execute(f"INSERT INTO payments_view ({columns}) VALUES ({values})", row)

    @apply.register
    def _succeeded(self, event: PaymentSucceeded, cursor: ViewCursor) -> None:
        self._update(
            cursor,
            event.originator_id,
            state="paid",
            imp_uid=event.imp_uid,
            paid_at=_iso(event.paid_at),
            pay_method=event.pay_method,
            pg_provider=event.pg_provider,
            card_name=event.card_name,
            card_number=event.card_number,
            bank_name=event.bank_name,
            receipt_url=event.receipt_url,
            pending=None,
            pending_since=None,
        )

    @apply.register
    def _reserved(self, event: PaymentReserved, cursor: ViewCursor) -> None:
        self._update(
            cursor,
            event.originator_id,
            state="reserved",
            imp_uid=event.imp_uid,
            pay_method="vbank",
            pg_provider=event.pg_provider,
            vbank_code=event.vbank_code,
            vbank_name=event.vbank_name,
            vbank_num=event.vbank_num,
            vbank_holder=event.vbank_holder,
            vbank_date=_iso(event.vbank_date),
            vbank_issued_at=_iso(event.vbank_issued_at),
        )

    @apply.register
    def _failed(self, event: PaymentFailed, cursor: ViewCursor) -> None:
        self._update(
            cursor,
            event.originator_id,
            state="failed",
            imp_uid=event.imp_uid,
            failed_at=_iso(event.failed_at),
            fail_reason=event.fail_reason,
            pending=None,
            pending_since=None,
        )

    @apply.register
    def _cancelled(self, event: PaymentCancelled, cursor: ViewCursor) -> None:
        owed = event.give_back > 0
        self._update(
            cursor,
            event.originator_id,
            state="cancelled",
            failed_at=_iso(event.cancelled_at),
            fail_reason=event.reason,
            give_back=event.give_back,
            pending=GIVE_BACK if owed else None,
            pending_since=_iso(event.cancelled_at) if owed else None,
        )

    @apply.register
    def _given_back(self, event: PaymentGivenBack, cursor: ViewCursor) -> None:
        cursor.execute(
            "SELECT give_back FROM payments_view WHERE payment_id = %(id)s", {"id": str(event.originator_id)}
        )
        row = cursor.fetchone()
        settled = row is None or event.cancel_amount >= int(row["give_back"] or 0)
        changes: dict[str, Any] = {"cancel_amount": event.cancel_amount}
        if settled:
            changes.update(pending=None, pending_since=None)
        self._update(cursor, event.originator_id, **changes)

    @apply.register
    def _first_charge(self, event: FirstChargeOrdered, cursor: ViewCursor) -> None:
        self._update(cursor, event.originator_id, pending=FIRST_CHARGE, pending_since=_iso(event.timestamp))

    @apply.register
    def _refund_reserved(self, event: RefundReserved, cursor: ViewCursor) -> None:
        self._update(cursor, event.originator_id, pending=REFUND, pending_since=_iso(event.reserved_at))

    @apply.register
    def _refund_released(self, event: RefundReleased, cursor: ViewCursor) -> None:
        self._update(cursor, event.originator_id, pending=None, pending_since=None)

    @apply.register
    def _refunded(self, event: PaymentRefunded, cursor: ViewCursor) -> None:
        cursor.execute(
            "SELECT refunds, pending FROM payments_view WHERE payment_id = %(id)s", {"id": str(event.originator_id)}
        )
        row = cursor.fetchone()
        refunds = json.loads(row["refunds"]) if row else []
        refunds.append(
            {
                "amount": event.amount,
                "reason": event.reason,
                "refundedAt": _iso(event.refunded_at),
                "source": event.source,
            }
        )
        changes: dict[str, Any] = {"cancel_amount": event.cancel_amount, "refunds": json.dumps(refunds)}
        if event.reservation_id is not None and row is not None and row["pending"] == REFUND:
            changes.update(pending=None, pending_since=None)
        self._update(cursor, event.originator_id, **changes)

    @apply.register
    def _upgrade_ordered(self, event: UpgradeOrdered, cursor: ViewCursor) -> None:
        self._update(cursor, event.originator_id, upgrade_credit=event.credit)

    @apply.register
    def _app_store(self, event: AppStorePurchaseRecorded, cursor: ViewCursor) -> None:
        self._update(
            cursor,
            event.originator_id,
            state="paid",
            paid_at=_iso(event.paid_at),
            pay_method="app-store",
            apple_transaction_id=event.apple_transaction_id,
        )

    @apply.register
    def _store_purchase(self, event: StorePurchaseVerified, cursor: ViewCursor) -> None:
        self._update(
            cursor,
            event.originator_id,
            state="paid",
            paid_at=_iso(event.paid_at),
            pay_method=event.store,
            pg_provider=event.store,
            imp_uid=event.transaction_id,
            apple_transaction_id=event.transaction_id if event.store == "app-store" else None,
        )

    @apply.register
    def _store_refunded(self, event: StoreRefunded, cursor: ViewCursor) -> None:
        cursor.execute("SELECT refunds FROM payments_view WHERE payment_id = %(id)s", {"id": str(event.originator_id)})
        row = cursor.fetchone()
        refunds = json.loads(row["refunds"]) if row else []
        refunds.append(
            {
                "amount": event.amount,
                "reason": event.reason,
                "refundedAt": _iso(event.refunded_at),
                "source": event.store,
            }
        )
        self._update(cursor, event.originator_id, cancel_amount=event.cancel_amount, refunds=json.dumps(refunds))

    @apply.register
    def _licence_granted(self, event: LicenceGranted, cursor: ViewCursor) -> None:
        if event.merchant_uid:
            self._link_licence(cursor, event.merchant_uid, event.originator_id, event.account_id)

    @apply.register
    def _licence_reserved(self, event: LicenceReserved, cursor: ViewCursor) -> None:
        self._link_licence(cursor, event.merchant_uid, event.originator_id, event.account_id)

    @apply.register
    def _licence_transferred(self, event: LicenceTransferred, cursor: ViewCursor) -> None:
        cursor.execute(
            "UPDATE payments_view SET account_id = %(account)s WHERE user_licence_id = %(licence)s",
            {"account": str(event.to_account_id), "licence": str(event.originator_id)},
        )

    def _link_licence(self, cursor: ViewCursor, merchant_uid: str, licence_id: UUID, account_id: UUID) -> None:
        cursor.execute(
            "UPDATE payments_view SET user_licence_id = %(licence)s, account_id = %(account)s "
            "WHERE merchant_uid = %(merchant)s",
            {"licence": str(licence_id), "account": str(account_id), "merchant": merchant_uid},
        )

    def _update(self, cursor: ViewCursor, payment_id: UUID, **columns: Any) -> None:
        assignments = ", ".join(f"{column} = %({column})s" for column in columns)
        cursor.execute(
            f"UPDATE payments_view SET {assignments} WHERE payment_id = %(payment_id)s",
            {**columns, "payment_id": str(payment_id)},
        )


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def payment_statement(account_id: UUID, user_licence_id: UUID | None = None) -> Statement:
    """The read of an account's payment records (or those of one of its licences), newest first, orders never
    paid left out; ``decoded`` makes its rows records."""
    only = " AND user_licence_id = %(licence)s" if user_licence_id is not None else ""
    return (
        f"SELECT * FROM payments_view WHERE account_id = %(account)s AND state <> 'ordered'{only} "
        "ORDER BY ordered_at DESC, merchant_uid",
        {"account": str(account_id), "licence": str(user_licence_id)},
    )


def decoded(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Payments-view rows with their JSON columns (refunds, discount factors) read."""
    for row in rows:
        _decode(row)
    return rows


def payments_of(db: ViewDatabase, account_id: UUID) -> list[dict[str, Any]]:
    """An account's payment records, newest first (orders never paid are left out)."""
    with db.read() as cursor:
        cursor.execute(*payment_statement(account_id))
        return decoded(cursor.fetchall())


def payment_of(db: ViewDatabase, account_id: UUID, merchant_uid: str) -> dict[str, Any] | None:
    """One payment record of an account (None when not theirs)."""
    if "\x00" in merchant_uid:  # no merchantUid holds one, and PostgreSQL refuses it in a query
        return None
    with db.read() as cursor:
        cursor.execute(
            "SELECT * FROM payments_view WHERE account_id = %(account)s AND merchant_uid = %(merchant)s",
            {"account": str(account_id), "merchant": merchant_uid},
        )
        row = cursor.fetchone()
    if row is not None:
        _decode(row)
    return row


def _decode(row: dict[str, Any]) -> None:
    row["refunds"] = json.loads(row["refunds"])
    row["discount_factors"] = json.loads(row["discount_factors"])


def overdue_virtual_accounts(db: ViewDatabase, now: datetime) -> list[str]:
    """merchantUids of virtual accounts still waiting for a deposit past their deadline."""
    with db.read() as cursor:
        cursor.execute(
            "SELECT merchant_uid, vbank_date FROM payments_view WHERE state = 'reserved' ORDER BY vbank_date",
        )
        rows = cursor.fetchall()
    return [
        row["merchant_uid"] for row in rows if row["vbank_date"] and datetime.fromisoformat(row["vbank_date"]) <= now
    ]


def pending_payments(db: ViewDatabase, since_before: datetime) -> list[tuple[str, str]]:
    """(merchantUid, what is pending) of every payment with money in flight at the gateway since before
    ``since_before``, oldest first: a first charge ordered, a refund reserved, money owed back."""
    with db.read() as cursor:
        cursor.execute(
            "SELECT merchant_uid, pending, pending_since FROM payments_view WHERE pending_since IS NOT NULL "
            "ORDER BY pending_since, merchant_uid"
        )
        rows = cursor.fetchall()
    return [
        (row["merchant_uid"], row["pending"])
        for row in rows
        if datetime.fromisoformat(row["pending_since"]) <= since_before
    ]


def payments_ordered_between(db: ViewDatabase, since: datetime, until: datetime) -> list[dict[str, Any]]:
    """Every payment ordered in ``[since, until)`` (for reconciliation with the gateway), oldest first."""
    with db.read() as cursor:
        cursor.execute("SELECT * FROM payments_view ORDER BY ordered_at, merchant_uid")
        rows = cursor.fetchall()
    return [row for row in rows if since <= datetime.fromisoformat(row["ordered_at"]) < until]


def payment_by_merchant_uid(db: ViewDatabase, merchant_uid: str) -> dict[str, Any] | None:
    """The payment ordered under a merchantUid, whoever ordered it."""
    if "\x00" in merchant_uid:
        return None
    with db.read() as cursor:
        cursor.execute("SELECT * FROM payments_view WHERE merchant_uid = %(merchant)s", {"merchant": merchant_uid})
        return cursor.fetchone()
