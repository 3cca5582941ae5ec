"""The 30-day money-back rule: a licence as bought within 30 days of its first purchase, once per customer and
product (but within the 7-day withdrawal right for a licence never used), under the limit at once, everything else
refused with its reason."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from domain.payments.money_back import Decision, GuaranteeFacts, PaymentFacts, Refusal, money_back

PAID = datetime(2026, 11, 1, tzinfo=UTC)
LIMITS = {"KRW": 100_000, "USD": 10_000}


def facts(used_before: bool = False, ever_used: bool = True, **changes: object) -> GuaranteeFacts:
    base: dict[str, object] = {
        "paid": True,
        "purchase_type": "new",
        "paid_at": PAID,
        "refundable": 41_160,
        "currency": "KRW",
        "app_store": False,
    }
    first = PaymentFacts(**{**base, **changes})  # type: ignore[arg-type]
    return GuaranteeFacts(first, first.refundable, used_before, ever_used)


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


def test_a_licence_comes_back_as_bought_all_of_its_payments_together() -> None:
    # The first purchase's 2 won left after an upgrade's credit, and the upgrade's 30,001: 30,003 in all.
    first = PaymentFacts(True, "new", PAID, 2, "KRW", False)
    answer = money_back(GuaranteeFacts(first, 30_003), PAID + timedelta(days=2), LIMITS)
    assert (answer.eligible, answer.amount) == (True, 30_003)


def test_the_guarantee_is_given_once_per_customer_and_product() -> None:
    later = PAID + timedelta(days=8)
    assert money_back(facts(used_before=True), later, LIMITS).refusal is Refusal.USED_BEFORE
    assert money_back(facts(used_before=True, ever_used=False), later, LIMITS).refusal is Refusal.USED_BEFORE


def test_within_seven_days_a_licence_never_used_comes_back_even_after_the_guarantee_was_used() -> None:
    # The E-Commerce Act's withdrawal right (Article 17): the guarantee is never weaker than it.
    week = PAID + timedelta(days=7)
    assert money_back(facts(used_before=True, ever_used=False), week, LIMITS).eligible
    assert money_back(facts(used_before=True, ever_used=True), week, LIMITS).refusal is Refusal.USED_BEFORE
    assert money_back(facts(used_before=True, ever_used=False), week + timedelta(seconds=1), LIMITS).refusal is (
        Refusal.USED_BEFORE
    )


def test_every_refusal_is_answered_with_a_code_of_its_own() -> None:
    codes = {refusal.code for refusal in Refusal if refusal is not Refusal.NOT_PAID}
    assert len(codes) == len(Refusal) - 1
