"""Finding a payment record by its order id (merchantUid)."""

from __future__ import annotations

from eventsourcing.application import AggregateNotFoundError

from domain.payments.payment import Payment
from domain.store import Storefront


def recorded_payment(store: Storefront, merchant_uid: str) -> Payment | None:
    """The payment recorded under ``merchant_uid``, if any."""
    try:
        payment: Payment = store.repository.get(Payment.id_for(merchant_uid))
    except AggregateNotFoundError:
        return None
    return payment
