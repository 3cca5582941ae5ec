"""The ledger summed per Korean business day, kept as events arrive: one row per day, currency, product, plan (its
catalogue id) and payment method with its revenue, refunds, counts and what coupons gave away. The back office's
revenue page reads these few rows instead of summing every movement of money per request (``python -m bench ledger``).

What counts, on which day and once, is the ledger's rule (domain/payments/revenue.py), as in the ``ledger`` view.
"""

from __future__ import annotations

from functools import singledispatchmethod
from typing import Any

from domain.payments.revenue import REVENUE, Movement, movement
from eventlog.database import ViewCursor
from events.payments import PaymentOrdered, PaymentRefunded, PaymentSucceeded
from projections.view import View

KEY = ("day", "currency", "product", "plan", "pay_method")
SUMS = ("revenue", "refunds", "payments", "refunded", "coupon_payments", "given_away")


class FinanceDailyView(View):
    """``finance_daily`` (the sums) and ``finance_daily_payments`` (what each payment was for, and whether a movement
    was counted)."""

    name = "finance_daily"
    tables = ("finance_daily", "finance_daily_payments", "finance_daily_entries")
    version = 2  # 2: plans by their catalogue id (was their name in the buyer's language)

    def schema(self) -> list[str]:
        return [
            "CREATE TABLE IF NOT EXISTS finance_daily_payments ("
            "payment_id TEXT PRIMARY KEY, product TEXT NOT NULL, plan TEXT NOT NULL, currency TEXT NOT NULL, "
            "amount BIGINT NOT NULL, given_away BIGINT NOT NULL, coupon INTEGER NOT NULL, pay_method TEXT)",
            "CREATE TABLE IF NOT EXISTS finance_daily_entries (entry_id TEXT PRIMARY KEY)",
            "CREATE TABLE IF NOT EXISTS finance_daily ("
            "day TEXT NOT NULL, currency TEXT NOT NULL, product TEXT NOT NULL, plan TEXT NOT NULL, "
            "pay_method TEXT NOT NULL, revenue BIGINT NOT NULL, refunds BIGINT NOT NULL, payments BIGINT NOT NULL, "
            "refunded BIGINT NOT NULL, coupon_payments BIGINT NOT NULL, given_away BIGINT NOT NULL, "
            "PRIMARY KEY (day, currency, product, plan, pay_method))",
        ]

    @singledispatchmethod
    def apply(self, event: Any, cursor: ViewCursor) -> None:
        """Events that move no money change nothing here."""

    @apply.register
    def _ordered(self, event: PaymentOrdered, cursor: ViewCursor) -> None:
        cursor.execute(
            "INSERT INTO finance_daily_payments (payment_id, product, plan, currency, amount, given_away, coupon) "
            "VALUES (%(id)s, %(product)s, %(plan)s, %(currency)s, %(amount)s, %(given)s, %(coupon)s) "
            "ON CONFLICT (payment_id) DO NOTHING",
            {
                "id": str(event.originator_id),
                "product": event.product_code,
                "plan": str(event.licence_id),  # the plan's id: its name is only a label, in the reader's language
                "currency": event.currency.value,
                "amount": event.amount,
                "given": max(event.original_amount - event.amount, 0),
                "coupon": 1 if event.coupon_code else 0,
            },
        )

    @apply.register
    def _succeeded(self, event: PaymentSucceeded, cursor: ViewCursor) -> None:
        cursor.execute(
            "UPDATE finance_daily_payments SET pay_method = %(method)s WHERE payment_id = %(id)s",
            {"method": event.pay_method, "id": str(event.originator_id)},
        )
        self._add(cursor, movement(event))

    @apply.register
    def _refunded(self, event: PaymentRefunded, cursor: ViewCursor) -> None:
        self._add(cursor, movement(event))

    def _add(self, cursor: ViewCursor, moved: Movement) -> None:
        entry, payment_id = moved.entry_id, moved.payment_id
        cursor.execute("SELECT entry_id FROM finance_daily_entries WHERE entry_id = %(entry)s", {"entry": entry})
        if cursor.fetchone() is not None:
            return
        cursor.execute(
            "SELECT product, plan, currency, amount, given_away, coupon, pay_method FROM finance_daily_payments "
            "WHERE payment_id = %(id)s",
            {"id": str(payment_id)},
        )
        payment = cursor.fetchone()
        if payment is None:  # pragma: no cover  (every payment is ordered before it moves money)
            return
        cursor.execute("INSERT INTO finance_daily_entries (entry_id) VALUES (%(entry)s)", {"entry": entry})
        revenue = moved.kind == REVENUE
        coupon = revenue and bool(payment["coupon"])
        amount = moved.amount_of(int(payment["amount"]))
        sums = {
            "revenue": amount if revenue else 0,
            "refunds": 0 if revenue else amount,
            "payments": 1 if revenue else 0,
            "refunded": 0 if revenue else 1,
            "coupon_payments": 1 if coupon else 0,
            "given_away": int(payment["given_away"]) if coupon else 0,
        }
        cursor.execute(
            f"INSERT INTO finance_daily ({', '.join(KEY + SUMS)}) VALUES "
            f"({', '.join(f'%({name})s' for name in KEY + SUMS)}) "
            f"ON CONFLICT ({', '.join(KEY)}) DO UPDATE SET "
            + ", ".join(f"{name} = finance_daily.{name} + excluded.{name}" for name in SUMS),
            {
                "day": moved.day.isoformat(),
                "currency": payment["currency"],
                "product": payment["product"],
                "plan": payment["plan"],
                "pay_method": payment["pay_method"] or "",
                **sums,
            },
        )
