"""The coupons view: every coupon group and code, each redemption (who, when, which payment), and what each
discounted payment gave away, for marketing's pages in the back office.

"Given away" is what the coupon took off a payment: the price after the base and remaining discounts less the
amount charged (docs/coupons.md, Composition). A released redemption (an unpaid virtual account) no longer counts.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from decimal import Decimal
from functools import singledispatchmethod
from typing import Any
from uuid import UUID

from domain.pricing.quotes import DiscountKind, Quote, factors_from_records
from eventlog.database import ViewCursor, ViewDatabase
from events.coupons import (
    CouponCodeIssued,
    CouponGroupChanged,
    CouponGroupCreated,
    CouponRedeemed,
    CouponRedemptionReleased,
)
from events.payments import PaymentOrdered, PaymentRefunded, PaymentSucceeded, UpgradeOrdered
from events.values import Currency
from projections.view import View

RULE_FIELDS = (
    "name",
    "group_type",
    "constraint_type",
    "factor",
    "operator",
    "available_duration",
    "countries",
    "apply_default_country",
    "enabled",
    "start_at",
    "exp_at",
    "sub_issued_count",
    "issued_count",
    "currency",
)


def _text(moment: datetime | None) -> str | None:
    return moment.astimezone(UTC).isoformat(timespec="microseconds") if moment else None


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, Decimal | UUID):
        return str(value)
    return value


def given_away(list_price: int, currency: str, factors: list[dict[str, Any]], credit: int) -> int:
    """What the coupon took off: the price before the coupon's step less the amount charged."""
    quote = Quote(0, "", Currency(currency), list_price, factors_from_records(factors), credit)
    return quote.price_after(DiscountKind.REMAINING) - quote.amount


class CouponsView(View):
    """Groups with their rules, codes, redemptions, and the payments made with a code."""

    name = "coupons"
    tables = ("coupon_groups_view", "coupon_codes_view", "coupon_redemptions_view", "coupon_payments_view")

    def schema(self) -> list[str]:
        return [
            "CREATE TABLE IF NOT EXISTS coupon_groups_view (group_id TEXT PRIMARY KEY, name TEXT NOT NULL, "
            "group_type TEXT NOT NULL, enabled BOOLEAN NOT NULL, rules TEXT NOT NULL, created_at TEXT NOT NULL, "
            "changed_at TEXT NOT NULL)",
            "CREATE TABLE IF NOT EXISTS coupon_codes_view (code_id TEXT PRIMARY KEY, code TEXT NOT NULL, "
            "group_id TEXT NOT NULL, issued_at TEXT NOT NULL)",
            "CREATE INDEX IF NOT EXISTS coupon_codes_view_group ON coupon_codes_view (group_id, code)",
            "CREATE TABLE IF NOT EXISTS coupon_redemptions_view (code_id TEXT NOT NULL, merchant_uid TEXT NOT NULL, "
            "code TEXT NOT NULL, group_id TEXT NOT NULL, buyer_email TEXT NOT NULL, user_licence_id TEXT, "
            "redeemed_at TEXT NOT NULL, released_at TEXT, PRIMARY KEY (code_id, merchant_uid))",
            "CREATE INDEX IF NOT EXISTS coupon_redemptions_view_group ON coupon_redemptions_view (group_id)",
            "CREATE TABLE IF NOT EXISTS coupon_payments_view (payment_id TEXT PRIMARY KEY, "
            "merchant_uid TEXT NOT NULL UNIQUE, account_id TEXT, name TEXT NOT NULL, amount BIGINT NOT NULL, "
            "currency TEXT NOT NULL, list_price BIGINT NOT NULL, factors TEXT NOT NULL, credit BIGINT NOT NULL, "
            "given_away BIGINT NOT NULL, state TEXT NOT NULL, pay_method TEXT, paid_at TEXT, "
            "cancel_amount BIGINT NOT NULL)",
        ]

    @singledispatchmethod
    def apply(self, event: Any, cursor: ViewCursor) -> None:
        return None

    @apply.register
    def _group_created(self, event: CouponGroupCreated, cursor: ViewCursor) -> None:
        cursor.execute(
            "INSERT INTO coupon_groups_view (group_id, name, group_type, enabled, rules, created_at, changed_at) "
            "VALUES (%(id)s, %(name)s, %(type)s, %(enabled)s, %(rules)s, %(at)s, %(at)s)",
            self._group_row(event),
        )

    @apply.register
    def _group_changed(self, event: CouponGroupChanged, cursor: ViewCursor) -> None:
        cursor.execute(
            "UPDATE coupon_groups_view SET name = %(name)s, enabled = %(enabled)s, rules = %(rules)s, "
            "changed_at = %(at)s WHERE group_id = %(id)s",
            self._group_row(event),
        )

    @staticmethod
    def _group_row(event: CouponGroupCreated | CouponGroupChanged) -> dict[str, Any]:
        rules = {name: _plain(getattr(event, name)) for name in RULE_FIELDS}
        return {
            "id": str(event.originator_id),
            "name": event.name,
            "type": event.group_type,
            "enabled": bool(event.enabled),
            "rules": json.dumps(rules, ensure_ascii=False),
            "at": _text(event.timestamp),
        }

    @apply.register
    def _code_issued(self, event: CouponCodeIssued, cursor: ViewCursor) -> None:
        cursor.execute(
            "INSERT INTO coupon_codes_view (code_id, code, group_id, issued_at) VALUES (%(id)s, %(code)s, %(group)s, "
            "%(at)s)",
            {
                "id": str(event.originator_id),
                "code": event.code,
                "group": str(event.group_id),
                "at": _text(event.timestamp),
            },
        )

    @apply.register
    def _redeemed(self, event: CouponRedeemed, cursor: ViewCursor) -> None:
        cursor.execute(
            "SELECT code, group_id FROM coupon_codes_view WHERE code_id = %(id)s", {"id": str(event.originator_id)}
        )
        code = cursor.fetchone()
        if code is None:
            return
        row = {"id": str(event.originator_id), "uid": event.merchant_uid}
        cursor.execute("DELETE FROM coupon_redemptions_view WHERE code_id = %(id)s AND merchant_uid = %(uid)s", row)
        cursor.execute(
            "INSERT INTO coupon_redemptions_view (code_id, merchant_uid, code, group_id, buyer_email, "
            "user_licence_id, redeemed_at) VALUES (%(id)s, %(uid)s, %(code)s, %(group)s, %(email)s, %(licence)s, "
            "%(at)s)",
            {
                **row,
                "code": code["code"],
                "group": code["group_id"],
                "email": event.buyer_email,
                "licence": str(event.user_licence_id) if event.user_licence_id else None,
                "at": _text(event.timestamp),
            },
        )

    @apply.register
    def _released(self, event: CouponRedemptionReleased, cursor: ViewCursor) -> None:
        cursor.execute(
            "UPDATE coupon_redemptions_view SET released_at = %(at)s WHERE code_id = %(id)s AND merchant_uid = %(uid)s",
            {"id": str(event.originator_id), "uid": event.merchant_uid, "at": _text(event.timestamp)},
        )

    @apply.register
    def _ordered(self, event: PaymentOrdered, cursor: ViewCursor) -> None:
        if not event.coupon_code:
            return
        factors = [{"type": item["type"], "factor": str(item["factor"])} for item in event.discount_factors]
        cursor.execute(
            "INSERT INTO coupon_payments_view (payment_id, merchant_uid, account_id, name, amount, currency, "
            "list_price, factors, credit, given_away, state, cancel_amount) VALUES (%(id)s, %(uid)s, %(account)s, "
            "%(name)s, %(amount)s, %(currency)s, %(price)s, %(factors)s, 0, %(given)s, 'ordered', 0)",
            {
                "id": str(event.originator_id),
                "uid": event.merchant_uid,
                "account": str(event.account_id) if event.account_id else None,
                "name": event.name,
                "amount": event.amount,
                "currency": event.currency.value,
                "price": event.original_amount,
                "factors": json.dumps(factors),
                "given": given_away(event.original_amount, event.currency.value, factors, 0),
            },
        )

    @apply.register
    def _upgrade(self, event: UpgradeOrdered, cursor: ViewCursor) -> None:
        cursor.execute(
            "SELECT list_price, currency, factors FROM coupon_payments_view WHERE payment_id = %(id)s",
            {"id": str(event.originator_id)},
        )
        row = cursor.fetchone()
        if row is None:
            return
        given = given_away(int(row["list_price"]), row["currency"], json.loads(row["factors"]), event.credit)
        cursor.execute(
            "UPDATE coupon_payments_view SET credit = %(credit)s, given_away = %(given)s WHERE payment_id = %(id)s",
            {"id": str(event.originator_id), "credit": event.credit, "given": given},
        )

    @apply.register
    def _succeeded(self, event: PaymentSucceeded, cursor: ViewCursor) -> None:
        cursor.execute(
            "UPDATE coupon_payments_view SET state = 'paid', pay_method = %(method)s, paid_at = %(at)s "
            "WHERE payment_id = %(id)s",
            {"id": str(event.originator_id), "method": event.pay_method, "at": _text(event.paid_at)},
        )

    @apply.register
    def _refunded(self, event: PaymentRefunded, cursor: ViewCursor) -> None:
        cursor.execute(
            "UPDATE coupon_payments_view SET cancel_amount = %(cancel)s WHERE payment_id = %(id)s",
            {"id": str(event.originator_id), "cancel": event.cancel_amount},
        )


_REDEMPTIONS = (
    "SELECT r.code, r.merchant_uid, r.buyer_email, r.user_licence_id, r.redeemed_at, p.account_id, p.name, "
    "p.amount, p.currency, p.given_away, p.state, p.pay_method, p.paid_at, p.cancel_amount "
    "FROM coupon_redemptions_view r LEFT JOIN coupon_payments_view p ON p.merchant_uid = r.merchant_uid "
    "WHERE r.released_at IS NULL"
)


def _totals(rows: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    totals: dict[str, dict[str, int]] = {}
    for row in rows:
        currency = row["currency"] or "?"
        entry = totals.setdefault(currency, {"redemptions": 0, "charged": 0, "given_away": 0})
        entry["redemptions"] += 1
        entry["charged"] += int(row["amount"] or 0) - int(row["cancel_amount"] or 0)
        entry["given_away"] += int(row["given_away"] or 0)
    return totals


def coupon_groups(db: ViewDatabase) -> list[dict[str, Any]]:
    """Every group, newest first, with its rules, how many codes it has, its redemptions and what they gave away
    (per currency)."""
    with db.read() as cursor:
        cursor.execute("SELECT * FROM coupon_groups_view ORDER BY created_at DESC")
        groups = cursor.fetchall()
        cursor.execute("SELECT group_id, COUNT(*) AS codes FROM coupon_codes_view GROUP BY group_id")
        codes = {row["group_id"]: int(row["codes"]) for row in cursor.fetchall()}
        cursor.execute(_REDEMPTIONS.replace("SELECT r.code,", "SELECT r.group_id, r.code,"))
        redemptions = cursor.fetchall()
    answer = []
    for group in groups:
        mine = [row for row in redemptions if row["group_id"] == group["group_id"]]
        answer.append(
            {
                "group_id": group["group_id"],
                "rules": json.loads(group["rules"]),
                "created_at": group["created_at"],
                "changed_at": group["changed_at"],
                "codes": codes.get(group["group_id"], 0),
                "totals": _totals(mine),
            }
        )
    return answer


def group_codes(db: ViewDatabase, group_id: UUID) -> list[dict[str, Any]]:
    """A group's codes with how many payments hold each now."""
    with db.read() as cursor:
        cursor.execute(
            "SELECT c.code, c.issued_at, (SELECT COUNT(*) FROM coupon_redemptions_view r WHERE r.code_id = c.code_id "
            "AND r.released_at IS NULL) AS used FROM coupon_codes_view c WHERE c.group_id = %(group)s ORDER BY c.code",
            {"group": str(group_id)},
        )
        return [{**row, "used": int(row["used"])} for row in cursor.fetchall()]


def group_redemptions(db: ViewDatabase, group_id: UUID) -> tuple[list[dict[str, Any]], dict[str, dict[str, int]]]:
    """A group's redemptions, newest first (who, when, which payment, what it gave away), and their totals."""
    with db.read() as cursor:
        cursor.execute(
            f"{_REDEMPTIONS} AND r.group_id = %(group)s ORDER BY r.redeemed_at DESC", {"group": str(group_id)}
        )
        rows = cursor.fetchall()
    return rows, _totals(rows)
