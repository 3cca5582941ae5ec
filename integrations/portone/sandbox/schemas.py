"""Request parameters the sandbox accepts (from JSON or form bodies)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from integrations.portone.sandbox.errors import BadRequestError

ModelT = TypeVar("ModelT", bound=BaseModel)

Id = Annotated[str, Field(min_length=1, max_length=200, pattern=r"^[^/?#]+$")]


class _Params(BaseModel):
    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True)


def _custom_data_as_string(value: Any) -> str | None:
    """request_pay takes custom_data as an object; payments carry it as a JSON string."""
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class TokenParams(_Params):
    """``POST /users/getToken``."""

    imp_key: str = ""
    imp_secret: str = ""


class PrepareParams(_Params):
    """``POST /payments/prepare``."""

    merchant_uid: Id
    amount: int = Field(ge=0)


class CancelParams(_Params):
    """``POST /payments/cancel``."""

    imp_uid: str | None = None
    merchant_uid: str | None = None
    amount: int | None = Field(default=None, ge=0)
    checksum: int | None = Field(default=None, ge=0)
    reason: str | None = None
    refund_holder: str | None = None
    refund_bank: str | None = None
    refund_account: str | None = None
    refund_tel: str | None = None

    @property
    def has_refund_account(self) -> bool:
        """Whether holder, bank and account were all given."""
        return bool(self.refund_holder and self.refund_bank and self.refund_account)


class BillingKeyParams(_Params):
    """``POST /subscribe/customers/{customer_uid}``. Card fields are never stored."""

    pg: str = "nice"
    card_number: str = Field(default="", repr=False)
    expiry: str = Field(default="", repr=False)
    birth: str = Field(default="", repr=False)
    pwd_2digit: str | None = Field(default=None, repr=False)
    customer_name: str | None = None
    customer_email: str | None = None


class AgainParams(_Params):
    """``POST /subscribe/payments/again``."""

    customer_uid: Id
    merchant_uid: Id
    amount: int = Field(gt=0)
    name: str = Field(min_length=1)
    currency: str = "KRW"
    buyer_email: str | None = None
    buyer_name: str | None = None
    custom_data: str | None = None
    notice_url: str | None = None

    _custom_data = field_validator("custom_data", mode="before")(_custom_data_as_string)


class CheckoutParams(_Params):
    """What ``IMP.request_pay`` receives, plus the customer's choices in the PG window."""

    pg: str = "nice"
    pay_method: str = "card"
    merchant_uid: Id
    name: str | None = None
    amount: int = Field(ge=0)
    currency: str = "KRW"
    buyer_email: str | None = None
    buyer_name: str | None = None
    custom_data: str | None = None
    customer_uid: str | None = Field(default=None, min_length=1, max_length=200)
    m_redirect_url: str | None = None
    notice_url: str | None = None
    vbank_due: str | None = None
    channel: Literal["pc", "mobile"] | None = None
    card_number: str | None = Field(default=None, repr=False)
    action: Literal["approve", "decline", "close"] = "approve"

    _custom_data = field_validator("custom_data", mode="before")(_custom_data_as_string)

    @field_validator("vbank_due", mode="before")
    @classmethod
    def _due_as_string(cls, value: Any) -> Any:
        return str(value) if isinstance(value, int) and not isinstance(value, bool) else value

    @field_validator("customer_uid", "m_redirect_url", "notice_url", "vbank_due", mode="before")
    @classmethod
    def _blank_is_none(cls, value: Any) -> Any:
        return None if isinstance(value, str) and not value.strip() else value


def describe(exc: ValidationError) -> str:
    """Say which parameters are wrong without echoing their values (they may be card data)."""
    parts = []
    for error in exc.errors():
        where = ".".join(str(part) for part in error["loc"]) or "body"
        parts.append(f"{where}: {error['msg']}")
    return "invalid parameters: " + "; ".join(parts)


def parse(model: type[ModelT], params: Mapping[str, Any]) -> ModelT:
    """Validate request parameters, refusing with HTTP 400 code -1."""
    try:
        return model.model_validate(dict(params))
    except ValidationError as exc:
        raise BadRequestError(describe(exc)) from None
