"""What became of a customer's 30-day money-back requests (docs/money-back.md), for the licence page to show each
payment's request: waiting for support, refunded, or refused with the reason."""

from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter

from api.access import CallerDep
from api.error_docs import errors
from api.schemas import CamelModel
from api.services import ServicesDep
from projections.support import money_back_requests_of

router = APIRouter(prefix="/payments", tags=["payments"])


class MoneyBackState(CamelModel):
    """One licence's money-back request (``merchantUid``: the payment it was bought with): ``waiting`` (for
    support), ``refunding`` (decided; the gateway has not confirmed it yet), ``refunded`` (``amount`` came back) or
    ``refused`` (``refused``: support's words when support declined it, or an earlier policy's code)."""

    merchant_uid: str
    request_id: UUID
    state: str
    amount: int
    refused: str | None
    requested_at: str


@router.get("/money-back", response_model=list[MoneyBackState], responses=errors())
def my_money_back_requests(services: ServicesDep, caller: CallerDep) -> list[MoneyBackState]:
    """The caller's money-back requests, newest first."""
    return [
        MoneyBackState(
            merchant_uid=row["merchant_uid"],
            request_id=row["request_id"],
            state="refunding" if row["state"] == "accepted" else row["state"],
            amount=int(row["refunded"]) if row["state"] == "refunded" else int(row["amount"]),
            refused=row["decision_reason"] if row["state"] == "refused" else None,
            requested_at=row["requested_at"],
        )
        for row in money_back_requests_of(services.views, caller.account_id)
    ]
