"""Money where two parts meet, on both stores against the PortOne sandbox over real HTTP: a refund racing an
upgrade of the same licence. A customer buys the lifetime 1-device plan (59,000 won) and pays for its upgrade to
3 devices (30,001 won, the rest paid by the first payment's credit); then, released by one barrier, the customer's
money-back request or a staff member's refund runs against the upgrade's confirm, its webhook, or the settlement of
an upgrade priced with a coupon. Twenty trials each. Whoever wins, nobody keeps both: a licence still upgraded was
paid in full, a refunded one is revoked or kept as it was bought, every payment's refunded amount in our log equals
the sandbox's, and reconciliation of the day finds nothing to report."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from typing import Any
from uuid import UUID

import pytest

from application.refunds import ask_money_back, refund_by_staff
from domain.coupons.admin import open_group
from domain.coupons.group import ConstraintType, GroupRules, GroupType
from domain.errors import DomainError
from domain.licences.licence import LicenceState, UserLicence
from domain.payments.payment import LicenceEffect, Payment, PaymentState
from domain.payments.purchase import confirm_payment, place_order, settle_notice, settle_payment
from domain.payments.reconciliation import OurPayment, reconcile
from domain.payments.upgrade import place_upgrade_order
from domain.staff.member import create_first_owner
from events.values import Language
from integrations.portone.gateway import PortOneGateway
from projections.payments import payment_by_merchant_uid, payments_ordered_between
from tests.integration.purchases.desk import Desk
from tests.support import register

pytestmark = pytest.mark.integration

LIFETIME, LIFETIME_3 = 131, 133
TRIALS = 20
COUPON = "THREEDEVICES"


@dataclass(frozen=True)
class Trial:
    """One customer's licence bought (``bought``), its upgrade paid at the sandbox (``upgrade``, ``imp_uid``)."""

    account_id: UUID
    licence_id: UUID
    bought: str
    upgrade: str
    imp_uid: str


def _pay(desk: Desk, order: Any) -> str:
    paid = desk.sandbox.checkout(
        pg=order.pg, pay_method=order.pay_method, merchant_uid=order.merchant_uid, name=order.name,
        amount=order.amount, currency=order.currency, buyer_email=order.buyer_email, card_number="4111111111111111",
    )  # fmt: skip
    imp_uid: str = paid["imp_uid"]
    return imp_uid


def _customer_with_a_paid_upgrade(desk: Desk, n: int, *, coupon: str | None = None) -> Trial:
    services = desk.services
    account_id = register(services.store, f"racer-{n}@example.com", services.clock).account_id
    bought = place_order(
        services.store, services.clock, services.payments, services.catalogue, licence_id=LIFETIME,
        country_code="KR", language=Language.KO, payment_method="creditCard", account_id=account_id, email=None,
    )  # fmt: skip
    assert bought.amount == 59000
    settled = settle_payment(
        services.store, services.clock, services.payments, imp_uid=_pay(desk, bought), merchant_uid=bought.merchant_uid
    )
    upgrade = place_upgrade_order(
        services.store, services.clock, services.payments, services.catalogue, account_id=account_id,
        user_licence_id=settled.user_licence_id, target_id=LIFETIME_3, expected_amount=None,
        payment_method="creditCard", language=Language.KO, coupon_code=coupon,
    )  # fmt: skip
    return Trial(account_id, settled.user_licence_id, bought.merchant_uid, upgrade.merchant_uid, _pay(desk, upgrade))


def _race(first: Callable[[], Any], second: Callable[[], Any]) -> list[Any]:
    """Both released at one moment; each answers its result or the refusal it raised (anything else fails)."""
    barrier = threading.Barrier(2)

    def run(command: Callable[[], Any]) -> Any:
        barrier.wait()
        try:
            return command()
        except DomainError as refused:
            return refused

    with ThreadPoolExecutor(max_workers=2) as pool:
        return list(pool.map(run, (first, second)))


def _check_nobody_keeps_both(desk: Desk, trial: Trial, *, full_refund: bool) -> str:
    """Our record of each payment equals the sandbox's, and the licence is what the money kept pays for."""
    store, gateway = desk.services.store, desk.services.payments
    assert isinstance(gateway, PortOneGateway)
    first: Payment = store.repository.get(Payment.id_for(trial.bought))
    upgrade: Payment = store.repository.get(Payment.id_for(trial.upgrade))
    for payment in (first, upgrade):
        assert payment.pending_refund is None and payment.give_back_owed == 0, "everything settled"
        assert payment.imp_uid is not None
        ours = payment.given_back if payment.state is PaymentState.CANCELLED else payment.cancel_amount
        assert ours == gateway.get_payment(payment.imp_uid).cancel_amount, payment.merchant_uid
    if upgrade.state is PaymentState.CANCELLED:
        assert upgrade.given_back == upgrade.amount, "an upgrade called off was given back in full"
    kept = sum(p.amount - p.cancel_amount for p in (first, upgrade) if p.state is PaymentState.PAID)
    licence: UserLicence = store.repository.get(trial.licence_id)
    if licence.state is LicenceState.ACTIVE and licence.licence_id == LIFETIME_3:
        assert kept == first.amount + upgrade.amount, "an upgraded licence was paid in full"
        return "upgraded"
    if full_refund:
        assert (licence.state, kept) == (LicenceState.REVOKED, 0), "the guarantee gave everything back"
        return "given back"
    assert (licence.state, licence.licence_id) == (LicenceState.ACTIVE, LIFETIME), "kept as it was bought"
    assert upgrade.state is PaymentState.CANCELLED, "the upgrade was called off and its charge given back"
    assert kept == first.amount - 10000
    return "refunded"


def _partner(desk: Desk, trial: Trial, how: str) -> Callable[[], Any]:
    services = desk.services
    if how == "webhook":
        return lambda: settle_notice(
            services.store, services.clock, services.payments, imp_uid=trial.imp_uid, merchant_uid=trial.upgrade
        )
    return lambda: confirm_payment(
        services.store, services.clock, services.payments, imp_uid=trial.imp_uid, merchant_uid=trial.upgrade,
        caller_account_id=trial.account_id,
    )  # fmt: skip


def _reconciled(desk: Desk) -> None:
    services = desk.services
    desk.views_caught_up()
    gateway = services.payments
    assert isinstance(gateway, PortOneGateway)
    today = services.clock.now()
    since, until = today - timedelta(days=1), today + timedelta(days=1)

    def ours(row: dict[str, Any] | None) -> OurPayment | None:
        if row is None:
            return None
        return OurPayment(row["merchant_uid"], row["state"], row["amount"], row["currency"], row["cancel_amount"])

    rows = [ours(row) for row in payments_ordered_between(services.views, since, until)]
    by_uid = lambda uid: ours(payment_by_merchant_uid(services.views, uid))  # noqa: E731
    for day in {(today - timedelta(hours=9)).date(), (today + timedelta(hours=9)).date()}:
        assert reconcile([row for row in rows if row], by_uid, gateway, day) == []


@pytest.mark.parametrize("partner", ["confirm", "webhook", "coupon"])
def test_a_money_back_request_racing_an_upgrade_never_leaves_both(desk: Desk, partner: str) -> None:
    services = desk.services
    if partner == "coupon":
        _open_coupon(desk)
    outcomes = set()
    for n in range(TRIALS):
        trial = _customer_with_a_paid_upgrade(desk, n, coupon=COUPON if partner == "coupon" else None)

        def money_back(trial: Trial = trial) -> Any:
            return ask_money_back(
                services.store, services.views, services.clock, services.payments,
                account_id=trial.account_id, merchant_uid=trial.bought, auto_limits={"KRW": 200_000},
            )  # fmt: skip

        _race(money_back, _partner(desk, trial, "confirm" if partner == "coupon" else partner))
        outcomes.add(_check_nobody_keeps_both(desk, trial, full_refund=True))
        desk.views_caught_up()  # the subscriptions view finds no subscription to end for these lifetime licences
    assert outcomes <= {"given back", "upgraded"}
    _reconciled(desk)


@pytest.mark.parametrize("partner", ["confirm", "webhook", "coupon"])
def test_a_staff_refund_racing_an_upgrade_never_leaves_both(desk: Desk, partner: str) -> None:
    services = desk.services
    if partner == "coupon":
        _open_coupon(desk)
    owner = create_first_owner(services.store, services.clock, email="owner@example.com", name="Owner")
    outcomes = set()
    for n in range(TRIALS):
        trial = _customer_with_a_paid_upgrade(desk, n, coupon=COUPON if partner == "coupon" else None)

        def staff_refund(trial: Trial = trial) -> Any:
            return refund_by_staff(
                services.store, services.views, services.clock, services.payments, owner.id,
                merchant_uid=trial.bought, amount=10000, reason="goodwill", approval_limits={"KRW": 200_000},
                licence_effect=LicenceEffect.KEEP,
            )  # fmt: skip

        answers = _race(staff_refund, _partner(desk, trial, "confirm" if partner == "coupon" else partner))
        outcome = _check_nobody_keeps_both(desk, trial, full_refund=False)
        if outcome == "upgraded":
            assert isinstance(answers[0], DomainError), "the credit was spent: 10,000 won is no longer there"
        outcomes.add(outcome)
    assert outcomes <= {"refunded", "upgraded"}
    _reconciled(desk)


def _open_coupon(desk: Desk) -> None:
    rules = GroupRules(
        name="three devices",
        group_type=GroupType.PUBLIC,
        constraint_type=ConstraintType.USER_LICENCE,
        factor=Decimal("0.1"),
        available_duration=36500,  # lifetime plans
        sub_issued_count=1000,
    )
    open_group(desk.services.store, desk.clock(), rules, code=COUPON)
