"""FastAPI app of the sandbox: PortOne's V1 routes and envelope, plus ``/sandbox/*``."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import asdict
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from integrations.portone.sandbox.errors import BadRequestError, SandboxError
from integrations.portone.sandbox.faults import FaultInjection, FaultPlan, Faults
from integrations.portone.sandbox.pages import IMP_SCRIPT, render_checkout, render_receipt
from integrations.portone.sandbox.receipts import CashReceipts, ReceiptParams
from integrations.portone.sandbox.records import Status
from integrations.portone.sandbox.schemas import (
    AgainParams,
    BillingKeyParams,
    CancelParams,
    CheckoutParams,
    PrepareParams,
    TokenParams,
    describe,
    parse,
)
from integrations.portone.sandbox.service import INVALID_REQUEST, Clock, Sandbox, utc_now
from integrations.portone.sandbox.settings import SandboxSettings
from integrations.portone.sandbox.store import SandboxStore
from integrations.portone.sandbox.webhooks import Notifier, WebhookSender

logger = logging.getLogger(__name__)

Params = dict[str, Any]


def envelope(response: Any = None, *, code: int = 0, message: str | None = None) -> Params:
    """PortOne's ``{"code", "message", "response"}``."""
    return {"code": code, "message": message, "response": response}


async def body_params(request: Request) -> Params:
    """Read a JSON or form-encoded body as a flat dict (empty body: no parameters)."""
    content_type = request.headers.get("content-type", "").lower()
    if "application/x-www-form-urlencoded" in content_type or "multipart/form-data" in content_type:
        form = await request.form()
        return {key: value for key, value in form.multi_items() if isinstance(value, str)}
    raw = await request.body()
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except ValueError:
        raise BadRequestError("the body must be JSON or form-encoded") from None
    if not isinstance(data, dict):
        raise BadRequestError("the body must be a JSON object")
    return data


Body = Annotated[Params, Depends(body_params)]


def presented_tokens(request: Request) -> list[str]:
    """Tokens from ``Authorization: Bearer t``, ``Authorization: t`` and ``X-ImpTokenHeader``."""
    tokens = []
    authorization = request.headers.get("authorization", "").strip()
    if authorization:
        scheme, _, rest = authorization.partition(" ")
        tokens.append(rest.strip() if scheme.lower() == "bearer" else authorization)
    header = request.headers.get("x-imptokenheader", "").strip()
    if header:
        tokens.append(header)
    return tokens


def _api_router(sandbox: Sandbox) -> APIRouter:
    def require_token(request: Request) -> None:
        sandbox.authenticate(presented_tokens(request))

    router = APIRouter()
    authed = APIRouter(dependencies=[Depends(require_token)])

    @router.post("/users/getToken", tags=["auth"])
    def get_token(body: Body) -> Params:
        """Issue (or return the live) access token."""
        params = parse(TokenParams, body)
        token = sandbox.issue_token(params.imp_key, params.imp_secret)
        return envelope({"access_token": token.access_token, "now": token.now, "expired_at": token.expired_at})

    @authed.get("/payments/find/{merchant_uid}", tags=["payments"])
    def find_payment(merchant_uid: str) -> Params:
        """The newest payment for a merchant_uid."""
        return envelope(sandbox.find_payment(merchant_uid).to_api())

    @authed.get("/payments/find/{merchant_uid}/{payment_status}", tags=["payments"])
    def find_payment_with_status(merchant_uid: str, payment_status: Status) -> Params:
        """The newest payment for a merchant_uid with the given status."""
        return envelope(sandbox.find_payment(merchant_uid, payment_status).to_api())

    @authed.get("/payments/status/{payment_status}", tags=["payments"])
    def list_payments(
        payment_status: Literal["all", "ready", "paid", "cancelled", "failed"],
        from_: Annotated[int, Query(alias="from", ge=0)],
        to: Annotated[int, Query(ge=0)],
        page: Annotated[int, Query(ge=1)] = 1,
        limit: Annotated[int, Query(ge=1, le=100)] = 20,
    ) -> Params:
        """Payments requested in [from, to) (unix seconds) with a status, newest first, a page at a time."""
        records = sandbox.list_payments(payment_status, from_, to)
        chosen = records[(page - 1) * limit : page * limit]
        return envelope(
            {
                "total": len(records),
                "previous": page - 1 if page > 1 else 0,
                "next": page + 1 if page * limit < len(records) else 0,
                "list": [record.to_api() for record in chosen],
            }
        )

    @authed.get("/payments/prepare/{merchant_uid}", tags=["payments"])
    def get_prepared(merchant_uid: str) -> Params:
        """Read a pre-registered amount."""
        return envelope(sandbox.prepared(merchant_uid).to_api())

    @authed.post("/payments/prepare", tags=["payments"])
    def prepare(body: Body) -> Params:
        """Pre-register the amount for a merchant_uid."""
        return envelope(sandbox.prepare(parse(PrepareParams, body)).to_api())

    @authed.post("/payments/cancel", tags=["payments"])
    def cancel(body: Body) -> Params:
        """Cancel a payment fully or partly."""
        return envelope(sandbox.cancel(parse(CancelParams, body)).to_api())

    @authed.get("/payments/{imp_uid}", tags=["payments"])
    def get_payment(imp_uid: str) -> Params:
        """A payment by imp_uid."""
        return envelope(sandbox.payment(imp_uid).to_api())

    cash_receipts = CashReceipts(sandbox)

    @authed.post("/receipts/{imp_uid}", tags=["cash receipts"])
    def issue_receipt(imp_uid: str, body: Body) -> Params:
        """Issue a payment's cash receipt (현금영수증)."""
        return envelope(cash_receipts.issue(imp_uid, parse(ReceiptParams, body)).to_api())

    @authed.get("/receipts/{imp_uid}", tags=["cash receipts"])
    def get_receipt(imp_uid: str) -> Params:
        """A payment's cash receipt."""
        return envelope(cash_receipts.get(imp_uid).to_api())

    @authed.delete("/receipts/{imp_uid}", tags=["cash receipts"])
    def cancel_receipt(imp_uid: str) -> Params:
        """Cancel a payment's cash receipt."""
        return envelope(cash_receipts.cancel(imp_uid).to_api())

    @authed.post("/subscribe/customers/{customer_uid}", tags=["billing keys"])
    def issue_billing_key(customer_uid: str, body: Body) -> Params:
        """Issue a billing key for a card."""
        params = parse(BillingKeyParams, body)
        return envelope(sandbox.issue_billing_key(customer_uid, params).to_api())

    @authed.get("/subscribe/customers/{customer_uid}", tags=["billing keys"])
    def get_billing_key(customer_uid: str) -> Params:
        """Read a billing key."""
        return envelope(sandbox.billing_key(customer_uid).to_api())

    @authed.delete("/subscribe/customers/{customer_uid}", tags=["billing keys"])
    def delete_billing_key(customer_uid: str) -> Params:
        """Revoke a billing key."""
        return envelope(sandbox.delete_billing_key(customer_uid).to_api())

    @authed.post("/subscribe/payments/again", tags=["billing keys"])
    def charge_again(body: Body) -> Params:
        """Charge a billing key (idempotent by merchant_uid)."""
        return envelope(sandbox.charge_again(parse(AgainParams, body)).to_api())

    router.include_router(authed)
    return router


def _sandbox_router(sandbox: Sandbox, notifier: Notifier, faults: Faults) -> APIRouter:
    router = APIRouter(prefix="/sandbox", tags=["sandbox"])

    @router.get("/faults")
    def current_faults() -> Params:
        """The faults the REST API is playing now (faults.py)."""
        return asdict(faults.plan())

    @router.post("/faults")
    def plan_faults(body: Body) -> Params:
        """From now on: latency_seconds, fail_next, lose_next, path_prefix, stall_after (missing ones reset)."""
        try:
            plan = FaultPlan(
                latency_seconds=float(body.get("latency_seconds", 0.0)),
                fail_next=int(body.get("fail_next", 0)),
                lose_next=int(body.get("lose_next", 0)),
                path_prefix=str(body.get("path_prefix", "")),
                stall_after=int(body.get("stall_after", -1)),
            )
        except (TypeError, ValueError) as error:
            raise BadRequestError(f"invalid fault plan: {error}") from None
        faults.set(plan)
        return asdict(plan)

    @router.get("/health")
    def health() -> Params:
        """Readiness probe."""
        return {"status": "ok"}

    @router.get("/checkout", response_class=HTMLResponse)
    def checkout_page(request: Request) -> HTMLResponse:
        """The page playing the PG window for request_pay's parameters."""
        return HTMLResponse(render_checkout(dict(request.query_params)))

    @router.post("/checkout")
    def checkout(body: Body) -> Params:
        """Complete request_pay as the customer would; returns the SDK's callback object."""
        try:
            params = CheckoutParams.model_validate(body)
        except ValidationError as exc:
            message = describe(exc)
            merchant_uid = body.get("merchant_uid")
            return {
                "success": False,
                "imp_success": False,
                "imp_uid": None,
                "merchant_uid": merchant_uid if isinstance(merchant_uid, str) else None,
                "error_code": INVALID_REQUEST,
                "error_msg": message,
            }
        return sandbox.checkout(params)

    @router.post("/deposit/{imp_uid}")
    def deposit(imp_uid: str) -> Params:
        """Deposit into a virtual account (ready -> paid) and send the webhook."""
        return envelope(sandbox.deposit(imp_uid).to_api())

    @router.post("/webhooks/replay/{imp_uid}")
    def replay_webhook(imp_uid: str) -> Params:
        """Send a payment's webhook again."""
        webhook = sandbox.replay_webhook(imp_uid)
        if webhook is None:
            raise SandboxError("no notice URL is configured for this payment")
        return envelope({**webhook.body(), "notice_url": webhook.url})

    @router.get("/webhooks")
    def deliveries() -> Params:
        """Recent webhook deliveries (newest last)."""
        if not isinstance(notifier, WebhookSender):
            return envelope([])
        return envelope(
            [
                {
                    **item.webhook.body(),
                    "notice_url": item.webhook.url,
                    "at": item.at.isoformat(),
                    "ok": item.ok,
                    "http_status": item.http_status,
                    "error": item.error,
                }
                for item in notifier.deliveries()
            ]
        )

    @router.get("/receipts/{imp_uid}", response_class=HTMLResponse)
    def receipt(imp_uid: str) -> HTMLResponse:
        """The receipt behind a payment's receipt_url."""
        return HTMLResponse(render_receipt(sandbox.payment(imp_uid)))

    @router.get("/iamport.js")
    def imp_script() -> Response:
        """A stand-in for PortOne's browser SDK: IMP.request_pay opens the checkout page."""
        return Response(IMP_SCRIPT, media_type="text/javascript")

    return router


def _install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(SandboxError)
    async def sandbox_error(request: Request, exc: SandboxError) -> JSONResponse:
        return JSONResponse(envelope(code=exc.code, message=exc.message), status_code=exc.http_status)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = [f"{'.'.join(str(p) for p in error['loc'])}: {error['msg']}" for error in exc.errors()]
        return JSONResponse(envelope(code=-1, message="invalid parameters: " + "; ".join(parts)), status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse(
            envelope(code=-1, message=str(exc.detail)),
            status_code=exc.status_code,
            headers=exc.headers,
        )

    @app.exception_handler(Exception)
    async def unexpected_error(request: Request, exc: Exception) -> JSONResponse:
        logger.error("portone sandbox: %s %s failed: %s", request.method, request.url.path, type(exc))
        return JSONResponse(envelope(code=-1, message="sandbox internal error"), status_code=500)


def create_sandbox_app(
    settings: SandboxSettings | None = None,
    *,
    clock: Clock = utc_now,
    notifier: Notifier | None = None,
) -> FastAPI:
    """Build the sandbox app; ``clock`` (aware UTC) lets tests move time."""
    settings = settings or SandboxSettings()
    store = SandboxStore(settings.db_path)
    sender = notifier or WebhookSender(timeout=settings.webhook_timeout_seconds)
    sandbox = Sandbox(settings, store, notifier=sender, clock=clock)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        sender.close()
        store.close()

    app = FastAPI(
        title="PortOne V1 sandbox",
        summary="A local stand-in for PortOne's (iamport) V1 REST API and PG windows.",
        lifespan=lifespan,
        docs_url="/sandbox/docs",
        openapi_url="/sandbox/openapi.json",
        redoc_url=None,
    )
    faults = Faults(settings.latency_seconds)
    app.state.sandbox = sandbox
    app.state.notifier = sender
    app.state.faults = faults
    _install_error_handlers(app)
    app.add_middleware(FaultInjection, faults=faults)
    app.include_router(_api_router(sandbox))
    app.include_router(_sandbox_router(sandbox, sender, faults))
    return app
