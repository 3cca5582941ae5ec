"""An operator refunds part of a payment from the command line, as a named staff member and under the same rules as
the back office; history and licence follow."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bootstrap import Services
from config.settings import Settings
from domain.catalogue.licences import Catalogue
from domain.licences.licence import LicenceState, UserLicence
from domain.payments.purchase import place_order, settle_payment
from domain.store import Storefront
from eventlog.tracking import wait_for_views
from events.values import Language
from integrations.portone.gateway import PortOneGateway
from projections.payments import payments_of
from tests.integration.portone.harness import RunningSandbox
from tests.integration.purchases.conftest import SharedClock
from tests.support import running_projector
from workers import operator

pytestmark = pytest.mark.integration


def test_an_operator_refunds_part_then_the_rest_and_the_licence_ends(
    settings: Settings,
    sandbox: RunningSandbox,
    gateway: PortOneGateway,
    domain_clock: SharedClock,
    catalogue: Catalogue,
    store: Storefront,
    capsys: pytest.CaptureFixture[str],
) -> None:
    order = place_order(
        store,
        domain_clock,
        gateway,
        catalogue,
        licence_id=131,
        country_code="US",
        language=Language.EN,
        payment_method="creditCard",
        account_id=None,
        email="refund.me@example.com",
    )
    paid = sandbox.checkout(
        pg=order.pg,
        pay_method=order.pay_method,
        merchant_uid=order.merchant_uid,
        name=order.name,
        amount=order.amount,
        currency=order.currency,
        buyer_email=order.buyer_email,
        card_number="4111111111111111",
    )
    confirmed = settle_payment(store, domain_clock, gateway, imp_uid=paid["imp_uid"], merchant_uid=order.merchant_uid)
    assert (order.amount, order.currency) == (4999, "USD")  # lifetime, one device, $49.99

    services = Services.build(settings, clock=domain_clock, payments=gateway)

    def operate(*argv: str) -> int:
        return operator.run(operator.parse_args(argv), services)

    assert operate("refund", order.merchant_uid, "--amount", "1000", "--reason", "goodwill", "--actor", "x@y.z") == 2
    assert "no staff member" in capsys.readouterr().err, "nobody refunds as nobody"
    assert operate("staff", "create-owner", "boss@example.com", "Boss") == 0
    boss = ("--actor", "boss@example.com")
    assert operate("refund", order.merchant_uid, "--amount", "1000", "--reason", "goodwill", *boss) == 2
    assert "kept or shortened" in capsys.readouterr().err, "a partial refund says what becomes of the licence"
    shortened = ("--amount", "1000", "--reason", "goodwill", "--licence", "shorten", *boss)
    assert operate("refund", order.merchant_uid, *shortened) == 0
    assert "refunded 1000" in capsys.readouterr().out
    licence: UserLicence = store.repository.get(confirmed.user_licence_id)
    assert licence.state is LicenceState.ACTIVE
    assert licence.expires_at is not None
    assert licence.expires_at < domain_clock.now() + timedelta(days=36500)

    services.settings = services.settings.model_copy(update={"staff_refund_approval_limits": "USD=2000"})
    assert operate("refund", order.merchant_uid, "--reason", "customer asked", *boss) == 0
    assert "waits for a second member" in capsys.readouterr().out, "above the limit in all: a second member decides"
    services.settings = services.settings.model_copy(update={"staff_refund_approval_limits": "USD=10000"})
    assert operate("refund", order.merchant_uid, "--reason", "customer asked", *boss) == 0
    assert store.repository.get(confirmed.user_licence_id).state is LicenceState.REVOKED
    assert operate("refund", order.merchant_uid, "--amount", "1", "--reason", "again", *boss) == 2

    with running_projector(settings) as views:
        assert wait_for_views(views, store.name, ["payments"], store.max_notification_id(), timeout=10)
        [record] = payments_of(views, confirmed.account_id)
        assert record["cancel_amount"] == 4999
        assert [refund["amount"] for refund in record["refunds"]] == [1000, 3999]
    services.close()
