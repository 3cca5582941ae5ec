"""Finding 4: a once-per-account coupon was used again and again.

As it ran: a member's second use was refused (-613), but the same code was used again as a guest with fresh
addresses and with ``name+1@`` variants, and each confirm answered with a working licence key. Now the customer a
once-per-customer rule counts is the mailbox: case, ``+tag`` and Gmail's dotted variants of an address are one
customer, and a guest who uses such a code gets the key only in the mailbox, so an address they do not own buys
them nothing.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest

from domain.accounts.mailboxes import mailbox_of
from tests.integration.purchases.test_coupons_api import TEST_GROUP, AdminShop, shop
from tests.security.mailbox import deliver_mails, mailbox

pytestmark = pytest.mark.integration

ONCE_PER_CUSTOMER = {**TEST_GROUP, "constraintType": "account"}
__all__ = ["shop"]  # the coupon stories' shop, with the test-harness admin API


def guest_buys(shop: AdminShop, code: str, email: str) -> Any:
    order = shop.client.post(
        "/web/unicornpro/v1/payments/licenses/new",
        json={"licenseId": 111, "countryCode": "KR", "paymentMethod": "creditCard", "code": code, "email": email},
    )
    if order.status_code != 200:
        return order
    return shop.confirm(order.json(), shop.pay(order.json()))


def test_variants_of_one_mailbox_are_one_customer_for_a_once_per_customer_code(shop: AdminShop) -> None:
    shop.group(**ONCE_PER_CUSTOMER, code="ONEPER")
    first = guest_buys(shop, "ONEPER", "ada.lovelace@gmail.com")
    assert first.status_code == 200, first.text
    for variant in ("Ada.Lovelace@gmail.com", "ada.lovelace+1@gmail.com", "adalovelace@googlemail.com"):
        again = guest_buys(shop, "ONEPER", variant)
        assert again.json()["errorCode"] == -613, variant
    member = shop.account("ada.lovelace+shop@gmail.com")
    placed = shop.client.post(
        "/web/unicornpro/v1/payments/licenses/new",
        json={"licenseId": 111, "countryCode": "KR", "paymentMethod": "creditCard", "code": "ONEPER"},
        headers=member,
    )
    assert placed.json()["errorCode"] == -613, "a member with a variant of the address is the same customer"


def test_a_guest_gets_a_once_per_customer_codes_key_only_in_the_mailbox(shop: AdminShop) -> None:
    shop.group(**ONCE_PER_CUSTOMER, code="ONEPER")
    stranger_address = "someone-else@example.com"
    confirmed = guest_buys(shop, "ONEPER", stranger_address)
    assert confirmed.status_code == 200, confirmed.text
    assert confirmed.json()["licenseKey"] is None, "typing an address is not owning its mailbox"
    deliver_mails(shop.services)
    [receipt] = mailbox(shop.services, stranger_address)
    licence = shop.services.store.repository.get(UUID(confirmed.json()["userLicenseId"]))
    assert licence.licence_key in receipt.text, "the mailbox's owner gets the key"

    # Without a coupon bound to the customer, a guest sees the key at once, as before.
    order = shop.order(licenseId=111, email="plain@example.com")
    plain = shop.confirm(order, shop.pay(order))
    assert plain.json()["licenseKey"], plain.text


@pytest.mark.parametrize(
    ("typed", "mailbox_address"),
    [
        ("Ada@Example.com", "ada@example.com"),
        ("ada+promo@example.com", "ada@example.com"),
        ("a.d.a+x@GoogleMail.com", "ada@gmail.com"),
        ("a.d.a@example.com", "a.d.a@example.com"),
        ("+tag@example.com", "+tag@example.com"),
    ],
)
def test_the_mailbox_an_address_delivers_to(typed: str, mailbox_address: str) -> None:
    assert mailbox_of(typed) == mailbox_address
