"""Issue 40 finding 13 (racing coupon settlements): two guest orders of one mailbox with a once-per-customer code were
paid; the first settled, and the second's settlements, racing (the browser's confirm, the gateway's webhook, a
retry), answered -615 for the one that found the use taken and -301 ("the payment differs from its request") for
every other, though nothing differed.

Now every settlement of that payment answers what the first recorded: -615, the code was used already. The money
went back once, and the customer's one use stays with the first payment.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient

from domain.payments.gateway import GatewayStatus
from tests.integration.purchases.test_coupons_api import TEST_GROUP, AdminShop, shop
from tests.integration.purchases.test_purchase_api import V1

pytestmark = pytest.mark.integration

__all__ = ["shop"]

ONCE_PER_CUSTOMER = {**TEST_GROUP, "constraintType": "account"}
BUYER = "ada@example.com"


def order(shop: AdminShop, email: str) -> dict[str, Any]:
    return shop.order(licenseId=111, code="ONEPER", email=email)


def test_every_settlement_of_the_second_payment_answers_that_the_code_was_used(shop: AdminShop) -> None:
    shop.group(**ONCE_PER_CUSTOMER, code="ONEPER")
    first, second = order(shop, BUYER), order(shop, "Ada+again@example.com")
    first_paid, second_paid = shop.pay(first), shop.pay(second)
    assert shop.confirm(first, first_paid).status_code == 200

    def settle(_: int) -> tuple[int, int]:
        with TestClient(shop.client.app) as racer:
            answer = racer.post(
                f"{V1}/payments/licenses/new/confirm",
                json={"impUid": second_paid, "merchantUid": second["merchantUid"]},
            )
            return answer.status_code, answer.json().get("errorCode", 0)

    with ThreadPoolExecutor(max_workers=8) as pool:
        racing = list(pool.map(settle, range(8)))
    assert set(racing) == {(409, -615)}, racing
    assert settle(0) == (409, -615), "and any later one"
    assert shop.services.payments.get_payment(second_paid).status is GatewayStatus.CANCELLED, "its money went back"
