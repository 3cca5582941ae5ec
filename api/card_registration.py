"""Registering a card the customer typed in: the routes that take a card form hand it here, so the form itself
stays a plain request model and the gateway is called by the use case."""

from __future__ import annotations

from uuid import UUID

from api.schemas.cards import CardForm
from api.services import Services
from domain.payments.wallet import BillingKey, register_billing_key


def register_card(services: Services, account_id: UUID, form: CardForm) -> BillingKey:
    """Have the gateway issue a billing key for the form's card into the account's wallet (-303, -305, -308)."""
    card = form.card(services.clock.now().date())
    return register_billing_key(services.store, services.clock, services.payments, account_id=account_id, card=card)
