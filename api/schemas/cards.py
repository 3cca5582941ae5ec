"""How a customer hands over a card: the card form's fields, or the key a PG window issued."""

from __future__ import annotations

from datetime import date

from pydantic import Field

from api.schemas import CamelModel
from domain.payments.cards import Card, card_from_form


class CardForm(CamelModel):
    """The card entry fields (spec section 5). They go to the gateway and are dropped."""

    card_number: str = Field(min_length=1, max_length=19, description="digits only, no dashes")
    expiry_year: int
    expiry_month: int
    password: str = Field(min_length=1, max_length=2, description="first two digits of the card password")
    birth: str = Field(min_length=1, max_length=10, description="6-digit birth date or 10-digit business number")

    def __repr__(self) -> str:
        return "CardForm(…)"

    def card(self, today: date) -> Card:
        """The validated card (-305 when a field is wrong)."""
        return card_from_form(
            number=self.card_number,
            year=self.expiry_year,
            month=self.expiry_month,
            password=self.password,
            birth=self.birth,
            today=today,
        )


class WindowKey(CamelModel):
    """A billing key a PG window issued under the customerUid from GET /billingkeys/customerUid."""

    customer_uid: str = Field(min_length=1, max_length=80)
