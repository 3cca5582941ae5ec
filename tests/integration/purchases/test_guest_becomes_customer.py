"""A guest buys, gets the key and a link by mail, registers with that address and finds the licence theirs."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi.testclient import TestClient

import bootstrap
from api.app import create_app
from api.services import Services
from config.settings import Settings
from domain.catalogue.licences import Catalogue
from domain.payments.payment import Payment
from domain.payments.purchase import place_order, settle_payment
from domain.store import Storefront
from events.values import Language
from integrations.portone.gateway import PortOneGateway
from tests.fakes import PlainHasher
from tests.integration.portone.harness import RunningSandbox
from tests.integration.purchases.conftest import SharedClock
from tests.support import running_projector
from workers.tasks.payments import deliver_purchase_mail

pytestmark = pytest.mark.integration
V1 = "/web/unicornpro/v1"


def test_a_guest_registers_with_the_address_they_bought_with_and_sees_the_licence(
    settings: Settings,
    sandbox: RunningSandbox,
    gateway: PortOneGateway,
    domain_clock: SharedClock,
    catalogue: Catalogue,
    store: Storefront,
) -> None:
    order = place_order(
        store,
        domain_clock,
        gateway,
        catalogue,
        licence_id=121,
        country_code="KR",
        language=Language.EN,
        payment_method="creditCard",
        account_id=None,
        email="walk.in@example.com",
    )
    paid = sandbox.checkout(
        pg=order.pg,
        pay_method=order.pay_method,
        merchant_uid=order.merchant_uid,
        name=order.name,
        amount=order.amount,
        buyer_email=order.buyer_email,
        card_number="4111111111111111",
    )
    bought = settle_payment(
        store, domain_clock, gateway, imp_uid=paid["imp_uid"], merchant_uid=order.merchant_uid, language=Language.EN
    )

    workers = bootstrap.Services.build(settings, clock=domain_clock, payments=gateway)
    assert deliver_purchase_mail(workers, task_id="t-1", payment_id=Payment.id_for(order.merchant_uid), kind="receipt")
    workers.close()
    [receipt] = list(settings.outbox_dir.glob("*.eml"))
    text = receipt.read_text()
    assert bought.licence_key in text
    [register_link] = [word for word in text.split() if "/en/register?userLicenseKey=" in word]
    query = {name: values[0] for name, values in parse_qs(urlsplit(register_link).query).items()}

    services = Services.build(settings, clock=domain_clock, hasher=PlainHasher())
    client = TestClient(create_app(services=services))
    with running_projector(settings):
        link = client.get(f"{V1}/accounts/check/email", params={"userLicenseKey": bought.licence_key}).json()
        assert link == {"isRegistered": False, "emailConfirmed": False}
        # From the receipt's link: the signed t proves the mailbox, so the account is theirs at once.
        registered = client.post(
            f"{V1}/accounts",
            params={"userLicenseKey": query["userLicenseKey"], "receiptToken": query["t"]},
            json={"email": "Walk.In@example.com", "pw": "newpass123", "language": "en"},
        )
        assert registered.status_code == 200, registered.text
        assert registered.json() == {"userId": str(bought.account_id), "emailConfirmed": True}
        again = client.post(
            f"{V1}/accounts", json={"email": "walk.in@example.com", "pw": "other1234", "language": "en"}
        )
        assert again.json()["errorCode"] == -402

        link = client.get(f"{V1}/accounts/check/email", params={"userLicenseKey": bought.licence_key}).json()
        assert (link["isRegistered"], link["emailConfirmed"]) == (True, True)
        unknown = client.get(f"{V1}/accounts/check/email", params={"userLicenseKey": "0000-0000-0000-0000"})
        assert unknown.status_code == 404
        friend = client.post(
            f"{V1}/accounts",
            params={"userLicenseKey": "0000-0000-0000-0000"},
            json={"email": "friend@example.com", "pw": "friend1234", "language": "ko"},
        )
        assert friend.status_code == 200, "an unusable key never costs the registration"
        token = client.post(f"{V1}/auth/login", json={"email": "walk.in@example.com", "pw": "newpass123"}).json()
        mine = client.get(f"{V1}/licenses/mine", headers={"Authorization": f"Bearer {token['accessToken']}"}).json()
        assert [licence["licenseKey"] for licence in mine] == [bought.licence_key]
    services.close()
