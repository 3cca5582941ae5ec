"""A local stand-in for Apple's App Store (never in production), as the PortOne sandbox stands in for PortOne: it sells
subscriptions and lifetime purchases, signs their transactions and App Store Server Notifications v2 with its test
chain (``keys.py``), answers the App Store Server API's subscription statuses and transactions, and delivers each
notification to ``notification_url`` when one is set (``make run``); tests take the signed payload from the answer and
deliver it themselves.

Stand-in routes (no auth; ``?notify=false`` signs the notification but never sends it, as a notification Apple lost):

| route | does |
|---|---|
| `POST /standin/purchases` `{productId, appAccountToken?, storefront?, price?}` | SUBSCRIBED or ONE_TIME_CHARGE |
| `POST /standin/subscriptions/{originalTransactionId}/renew` | DID_RENEW: a new transaction, one more period |
| `.../grace` | DID_FAIL_TO_RENEW/GRACE_PERIOD: access kept `graceDays` (16) past the expiry |
| `.../billing-retry` | DID_FAIL_TO_RENEW: no access while Apple retries |
| `.../expire` | EXPIRED/VOLUNTARY |
| `.../refund` | REFUND of the latest transaction (its revocationDate set) |
| `.../revoke` | REVOKE (family sharing ended) |
| `.../auto-renew?on=false` | DID_CHANGE_RENEWAL_STATUS |

Each answers `{signedTransaction, transactionId, originalTransactionId, notificationUUID, signedPayload}`. The App
Store Server API's `GET /inApps/v1/subscriptions/{transactionId}` and `GET /inApps/v1/transactions/{transactionId}` need
a bearer token signed with the API key (``keys.py``), as Apple's do.
"""

from __future__ import annotations

import itertools
import logging
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import jwt
from cryptography.hazmat.primitives import serialization
from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from integrations.app_store.keys import StandInKeys

log = logging.getLogger(__name__)

SUBSCRIPTION = "Auto-Renewable Subscription"
NON_CONSUMABLE = "Non-Consumable"
_PERIODS = {"monthly": 30, "annual": 365}
_PRICES = {"KRW": {30: 2900, 365: 34800, 0: 59000}, "USD": {30: 299, 365: 3588, 0: 4999}}
_DIGITS = {"KRW": 0, "USD": 2, "JPY": 0}
Clock = Callable[[], datetime]


def _ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


@dataclass
class Purchase:
    """One purchase as the stand-in keeps it."""

    original_transaction_id: str
    product_id: str
    kind: str
    period_days: int
    storefront: str
    currency: str
    price: int  # milliunits
    app_account_token: str | None
    transactions: list[dict[str, Any]] = field(default_factory=list)
    status: int = 1  # 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked
    auto_renew: bool = True
    grace_until: datetime | None = None

    @property
    def latest(self) -> dict[str, Any]:
        return self.transactions[-1]


class PurchaseRequest(BaseModel):
    """A purchase in the stand-in."""

    productId: str  # noqa: N815
    appAccountToken: str | None = None  # noqa: N815
    storefront: str = "KOR"
    currency: str = "KRW"
    price: int | None = Field(default=None, description="milliunits (Apple's price field)")


class AppStoreStandIn:
    """The stand-in's state and signing."""

    def __init__(
        self,
        keys: StandInKeys,
        *,
        bundle_id: str,
        environment: str = "Sandbox",
        clock: Clock | None = None,
        notification_url: str | None = None,
        grace_days: int = 16,
    ) -> None:
        self.keys = keys
        self.bundle_id = bundle_id
        self.environment = environment
        self.clock = clock or (lambda: datetime.now(UTC))
        self.notification_url = notification_url
        self.grace_days = grace_days
        self.purchases: dict[str, Purchase] = {}
        self._ids = itertools.count(2000000000 + int(uuid.uuid4().int % 100000) * 1000)
        self._lock = threading.Lock()

    def sign(self, payload: dict[str, Any]) -> str:
        """A JWS signed by the stand-in's leaf, with the chain in x5c (as Apple signs)."""
        return jwt.encode(payload, self.keys.leaf_key, algorithm="ES256", headers={"x5c": self.keys.x5c})

    def _transaction(self, purchase: Purchase, starts: datetime, *, first: bool) -> dict[str, Any]:
        transaction_id = purchase.original_transaction_id if first else str(next(self._ids))
        now = self.clock()
        transaction: dict[str, Any] = {
            "transactionId": transaction_id,
            "originalTransactionId": purchase.original_transaction_id,
            "bundleId": self.bundle_id,
            "productId": purchase.product_id,
            "purchaseDate": _ms(now),
            "originalPurchaseDate": _ms(now),
            "quantity": 1,
            "type": purchase.kind,
            "inAppOwnershipType": "PURCHASED",
            "signedDate": _ms(now),
            "environment": self.environment,
            "storefront": purchase.storefront,
            "storefrontId": "143466",
            "currency": purchase.currency,
            "price": purchase.price,
            "transactionReason": "PURCHASE" if first else "RENEWAL",
        }
        if purchase.kind == SUBSCRIPTION:
            transaction["expiresDate"] = _ms(starts + timedelta(days=purchase.period_days))
        if purchase.app_account_token:
            transaction["appAccountToken"] = purchase.app_account_token
        return transaction

    def _renewal_info(self, purchase: Purchase) -> dict[str, Any]:
        info: dict[str, Any] = {
            "originalTransactionId": purchase.original_transaction_id,
            "autoRenewProductId": purchase.product_id,
            "productId": purchase.product_id,
            "autoRenewStatus": 1 if purchase.auto_renew else 0,
            "signedDate": _ms(self.clock()),
            "environment": self.environment,
            "recentSubscriptionStartDate": purchase.transactions[0]["purchaseDate"],
        }
        if purchase.status in (3, 4):
            info["isInBillingRetryPeriod"] = True
        if purchase.grace_until is not None:
            info["gracePeriodExpiresDate"] = _ms(purchase.grace_until)
        return info

    def buy(self, request: PurchaseRequest) -> tuple[Purchase, dict[str, Any]]:
        """A new purchase (a subscription, or a lifetime plan bought once)."""
        period = next((days for name, days in _PERIODS.items() if name in request.productId), 0)
        currency = request.currency.upper()
        price = request.price
        if price is None:
            price = _PRICES.get(currency, _PRICES["USD"])[period] * 1000 // 10 ** _DIGITS.get(currency, 2)
        with self._lock:
            purchase = Purchase(
                original_transaction_id=str(next(self._ids)),
                product_id=request.productId,
                kind=SUBSCRIPTION if period else NON_CONSUMABLE,
                period_days=period,
                storefront=request.storefront,
                currency=currency,
                price=price,
                app_account_token=request.appAccountToken,
            )
            purchase.transactions.append(self._transaction(purchase, self.clock(), first=True))
            self.purchases[purchase.original_transaction_id] = purchase
        kind = "SUBSCRIBED" if period else "ONE_TIME_CHARGE"
        return purchase, self.notify(purchase, kind, "INITIAL_BUY" if period else "")

    def change(self, original_transaction_id: str, what: str, *, on: bool = True) -> dict[str, Any]:
        """Something happens to a purchase; answers the notification Apple would send."""
        with self._lock:
            purchase = self.purchases.get(original_transaction_id)
            if purchase is None:
                raise HTTPException(404, "no such purchase")
            now = self.clock()
            expires = datetime.fromtimestamp(purchase.latest.get("expiresDate", _ms(now)) / 1000, tz=UTC)
            kind, subtype = "", ""
            if what == "renew":
                recovering = purchase.status in (3, 4)
                purchase.transactions.append(self._transaction(purchase, max(expires, now), first=False))
                purchase.status, purchase.grace_until = 1, None
                kind, subtype = "DID_RENEW", "BILLING_RECOVERY" if recovering else ""
            elif what == "grace":
                purchase.status, purchase.grace_until = 4, expires + timedelta(days=self.grace_days)
                kind, subtype = "DID_FAIL_TO_RENEW", "GRACE_PERIOD"
            elif what == "billing-retry":
                purchase.status, purchase.grace_until = 3, None
                kind = "DID_FAIL_TO_RENEW"
            elif what == "expire":
                purchase.status, purchase.grace_until, purchase.auto_renew = 2, None, False
                kind, subtype = "EXPIRED", "VOLUNTARY"
            elif what == "refund":
                purchase.transactions[-1] = {
                    **purchase.latest,
                    "revocationDate": _ms(now),
                    "revocationReason": 0,
                    "signedDate": _ms(now),
                }
                purchase.status = 2
                kind = "REFUND"
            elif what == "revoke":
                purchase.transactions[-1] = {
                    **purchase.latest,
                    "revocationDate": _ms(now),
                    "revocationReason": 0,
                    "signedDate": _ms(now),
                }
                purchase.status = 5
                kind = "REVOKE"
            elif what == "auto-renew":
                purchase.auto_renew = on
                kind, subtype = "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED" if on else "AUTO_RENEW_DISABLED"
            else:
                raise HTTPException(404, f"nothing called {what}")
        return self.notify(purchase, kind, subtype)

    def notify(self, purchase: Purchase, kind: str, subtype: str) -> dict[str, Any]:
        """The notification, signed now (sent when the stand-in has a URL to send it to)."""
        notification_uuid = str(uuid.uuid4())
        data: dict[str, Any] = {
            "appAppleId": 46,
            "bundleId": self.bundle_id,
            "bundleVersion": "1",
            "environment": self.environment,
            "signedTransactionInfo": self.sign({**purchase.latest, "signedDate": _ms(self.clock())}),
            "status": purchase.status,
        }
        if purchase.kind == SUBSCRIPTION:
            data["signedRenewalInfo"] = self.sign(self._renewal_info(purchase))
        payload: dict[str, Any] = {
            "notificationType": kind,
            "notificationUUID": notification_uuid,
            "data": data,
            "version": "2.0",
            "signedDate": _ms(self.clock()),
        }
        if subtype:
            payload["subtype"] = subtype
        return {
            "notificationUUID": notification_uuid,
            "signedPayload": self.sign(payload),
            "signedTransaction": data["signedTransactionInfo"],
            "transactionId": purchase.latest["transactionId"],
            "originalTransactionId": purchase.original_transaction_id,
        }

    def deliver(self, answer: dict[str, Any]) -> None:
        """Send a notification to the store's notification URL (logged, never raised)."""
        if not self.notification_url:
            return
        try:
            httpx.post(self.notification_url, json={"signedPayload": answer["signedPayload"]}, timeout=10)
        except httpx.HTTPError as error:
            log.warning("could not deliver App Store notification %s: %s", answer["notificationUUID"], error)

    def status_response(self, transaction_id: str) -> dict[str, Any] | None:
        """Get All Subscription Statuses (None: not a subscription's transaction)."""
        purchase = self._purchase_of(transaction_id)
        if purchase is None or purchase.kind != SUBSCRIPTION:
            return None
        last = {
            "originalTransactionId": purchase.original_transaction_id,
            "status": purchase.status,
            "signedTransactionInfo": self.sign({**purchase.latest, "signedDate": _ms(self.clock())}),
            "signedRenewalInfo": self.sign(self._renewal_info(purchase)),
        }
        return {
            "environment": self.environment,
            "bundleId": self.bundle_id,
            "appAppleId": 46,
            "data": [{"subscriptionGroupIdentifier": "unicornpro", "lastTransactions": [last]}],
        }

    def transaction_info(self, transaction_id: str) -> dict[str, Any] | None:
        """Get Transaction Info (None: no such transaction)."""
        purchase = self._purchase_of(transaction_id)
        if purchase is None:
            return None
        found = next(t for t in purchase.transactions if t["transactionId"] == transaction_id)
        return {"signedTransactionInfo": self.sign({**found, "signedDate": _ms(self.clock())})}

    def _purchase_of(self, transaction_id: str) -> Purchase | None:
        for purchase in self.purchases.values():
            if any(t["transactionId"] == transaction_id for t in purchase.transactions):
                return purchase
        return None

    def check_api_token(self, request: Request) -> None:
        """The App Store Server API's bearer: ES256, signed with the API key, for this bundle."""
        header = request.headers.get("authorization", "")
        if not header.lower().startswith("bearer "):
            raise HTTPException(401, "Unauthenticated")
        public = self.keys.api_key.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
        try:
            claims = jwt.decode(header[7:], public, algorithms=["ES256"], audience="appstoreconnect-v1")
        except jwt.PyJWTError:
            raise HTTPException(401, "Unauthenticated") from None
        if claims.get("bid") != self.bundle_id:
            raise HTTPException(401, "Unauthenticated")


def _not_found() -> JSONResponse:
    return JSONResponse({"errorCode": 4040010, "errorMessage": "Transaction id not found."}, status_code=404)


def create_app_store_standin(stand_in: AppStoreStandIn) -> FastAPI:
    """The stand-in's HTTP app."""
    app = FastAPI(title="App Store stand-in", docs_url="/standin/docs", openapi_url="/standin/openapi.json")
    app.state.stand_in = stand_in

    def answered(answer: dict[str, Any], notify: bool) -> dict[str, Any]:
        if notify:
            stand_in.deliver(answer)
        return answer

    @app.post("/standin/purchases")
    def buy(body: PurchaseRequest, notify: bool = True) -> dict[str, Any]:
        _, answer = stand_in.buy(body)
        return answered(answer, notify)

    @app.post("/standin/subscriptions/{original_transaction_id}/{what}")
    def change(original_transaction_id: str, what: str, notify: bool = True, on: bool = True) -> dict[str, Any]:
        return answered(stand_in.change(original_transaction_id, what, on=on), notify)

    @app.get("/standin/root.pem")
    def root() -> str:
        return stand_in.keys.root.public_bytes(serialization.Encoding.PEM).decode()

    @app.get("/standin/health")
    def health() -> dict[str, bool]:
        return {"ok": True}

    @app.get("/inApps/v1/subscriptions/{transaction_id}", response_model=None)
    def statuses(transaction_id: str, request: Request) -> dict[str, Any] | JSONResponse:
        stand_in.check_api_token(request)
        return stand_in.status_response(transaction_id) or _not_found()

    @app.get("/inApps/v1/transactions/{transaction_id}", response_model=None)
    def transaction(transaction_id: str, request: Request) -> dict[str, Any] | JSONResponse:
        stand_in.check_api_token(request)
        return stand_in.transaction_info(transaction_id) or _not_found()

    return app
