"""The 30-day money-back rule: first purchases within 30 days, under the limit at once, everything else refused
with its reason."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from domain.payments.money_back import Decision, PaymentFacts, Refusal, money_back

PAID = datetime(2026, 11, 1, tzinfo=UTC)
LIMITS = {"KRW": 100_000, "USD": 10_000}


def facts(**changes: object) -> PaymentFacts:
    base: dict[str, object] = {
        "paid": True,
        "purchase_type": "new",
        "paid_at": PAID,
        "refundable": 41_160,
        "currency": "KRW",
        "app_store": False,
    }
    return PaymentFacts(**{**base, **changes})  # type: ignore[arg-type]


def test_a_first_purchase_ten_days_ago_under_the_limit_is_refunded_at_once() -> None:
    answer = money_back(facts(), PAID + timedelta(days=10), LIMITS)
    assert (answer.eligible, answer.amount, answer.decision) == (True, 41_160, Decision.REFUND_NOW)
    assert answer.deadline == PAID + timedelta(days=30)


def test_the_thirtieth_day_is_in_and_the_next_second_is_out() -> None:
    assert money_back(facts(), PAID + timedelta(days=30), LIMITS).eligible
    assert money_back(facts(), PAID + timedelta(days=30, seconds=1), LIMITS).refusal is Refusal.TOO_LATE


def test_forty_days_ago_is_too_late() -> None:
    assert money_back(facts(), PAID + timedelta(days=40), LIMITS).refusal is Refusal.TOO_LATE


@pytest.mark.parametrize(
    ("changes", "why"),
    [
        ({"purchase_type": "renewal"}, Refusal.NOT_A_FIRST_PURCHASE),
        ({"purchase_type": "resubscribe"}, Refusal.NOT_A_FIRST_PURCHASE),
        ({"purchase_type": "upgrade"}, Refusal.NOT_A_FIRST_PURCHASE),
        ({"app_store": True}, Refusal.APP_STORE),
        ({"paid": False, "paid_at": None}, Refusal.NOT_PAID),
        ({"refundable": 0}, Refusal.NOTHING_LEFT),
    ],
)
def test_what_the_guarantee_does_not_cover(changes: dict[str, object], why: Refusal) -> None:
    assert money_back(facts(**changes), PAID + timedelta(days=1), LIMITS).refusal is why


def test_the_first_charge_of_a_subscription_is_a_first_purchase() -> None:
    assert money_back(facts(purchase_type="subscription"), PAID + timedelta(days=3), LIMITS).eligible


def test_above_the_limit_or_in_a_currency_without_one_it_waits_for_support() -> None:
    assert money_back(facts(refundable=150_000), PAID, LIMITS).decision is Decision.SUPPORT_QUEUE
    assert money_back(facts(currency="JPY", refundable=100), PAID, LIMITS).decision is Decision.SUPPORT_QUEUE


def test_credit_spent_on_an_upgrade_stays_out_only_the_rest_comes_back() -> None:
    # ``refundable`` is the payment's amount less refunds less the credit spent (domain.payments.payment).
    assert money_back(facts(refundable=9_000), PAID + timedelta(days=2), LIMITS).amount == 9_000
