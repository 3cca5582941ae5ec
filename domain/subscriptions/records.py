"""The payment record of a subscription charge, so every charge appears in the purchase history."""

from __future__ import annotations

from datetime import datetime

from domain.licences.licence import UserLicence
from domain.payments.gateway import GatewayPayment, GatewayStatus
from domain.payments.payment import Payment
from domain.subscriptions.subscription import Subscription


def charge_record(
    subscription: Subscription, licence: UserLicence, merchant_uid: str, purchase_type: str, at: datetime
) -> Payment:
    """A payment aggregate for one charge attempt of a subscription."""
    return Payment.order(
        merchant_uid=merchant_uid,
        at=at,
        licence_id=subscription.licence_id,
        catalogue_version=0,
        product_code=licence.product_code,
        life=subscription.life,
        max_devices_count=licence.max_devices_count,
        name=subscription.name,
        original_amount=subscription.amount,
        amount=subscription.amount,
        currency=subscription.currency,
        country_code="",
        account_id=subscription.account_id,
        buyer_email="",
        purchase_type=purchase_type,
    )


def paid_in_full(charge: GatewayPayment, amount: int) -> bool:
    """Did the gateway take exactly what we asked for?"""
    return charge.status is GatewayStatus.PAID and charge.amount == amount
