"""A local stand-in for Google Play (never in production): it sells subscriptions and one-time products, answers the
Developer API's lookups (``subscriptionsv2.get``, ``products.get``) to a service account's access token (its own OAuth
token endpoint), publishes its signing keys as Google does (``/oauth2/v3/certs``) and pushes Real-time Developer
Notifications as Pub/Sub does, each with an OIDC token signed by that key, to ``push_url`` when one is set; tests take
the push (body and header) from the answer and deliver it themselves.

Its keys (``StandInKeys``: the push-signing key and the service account's) are generated on first use into a folder
(``var/stand-ins/google-play/``, a test's temporary folder), never shipped.

Stand-in routes (``?notify=false``: the push is made but not sent):

| route | does |
|---|---|
| `POST /standin/purchases` `{productId, obfuscatedExternalAccountId?, regionCode?}` | PURCHASED (4, one-time 1) |
| `POST /standin/purchases/{purchaseToken}/renew` | RENEWED (2): a new order `..N`, one more period |
| `.../grace`, `hold`, `expire`, `revoke`, `cancel` | IN_GRACE_PERIOD 6, ON_HOLD 5, EXPIRED 13, REVOKED 12, CANCELED 3 |
| `.../refund` | a voided purchase notification of the latest order |
"""

from __future__ import annotations

import base64
import itertools
import json
import logging
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import jwt
from fastapi import FastAPI, Form, HTTPException, Request
from pydantic import BaseModel

from integrations.google_play.keys import PUSH_ACCOUNT, PUSH_KEY_ID, SERVICE_ACCOUNT, StandInKeys

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]
GOOGLE_ISSUER = "https://accounts.google.com"
_PERIODS = {"monthly": 30, "annual": 365}


def _rfc3339(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class PurchaseRequest(BaseModel):
    """A purchase in the stand-in."""

    productId: str  # noqa: N815
    obfuscatedExternalAccountId: str | None = None  # noqa: N815
    regionCode: str = "KR"  # noqa: N815


@dataclass
class PlayPurchase:
    """A purchase as the stand-in keeps it."""

    token: str
    product_id: str
    order_id: str
    renewals: int
    period_days: int
    started_at: datetime
    expires_at: datetime
    state: str
    auto_renew: bool
    account: str | None
    region: str
    purchase_state: int = 0  # one-time products: 0 purchased, 1 cancelled

    @property
    def latest_order(self) -> str:
        return self.order_id if self.renewals == 0 else f"{self.order_id}..{self.renewals - 1}"


class GooglePlayStandIn:
    """The stand-in's state, lookups and pushes."""

    def __init__(
        self,
        keys: StandInKeys,
        *,
        package_name: str,
        push_audience: str,
        clock: Clock | None = None,
        push_url: str | None = None,
        grace_days: int = 7,
    ) -> None:
        self.keys = keys
        self.package_name = package_name
        self.push_audience = push_audience
        self.clock = clock or (lambda: datetime.now(UTC))
        self.push_url = push_url
        self.grace_days = grace_days
        self.purchases: dict[str, PlayPurchase] = {}
        self.access_tokens: set[str] = set()
        self._orders = itertools.count(1)
        self._messages = itertools.count(int.from_bytes(secrets.token_bytes(3), "big") * 1000)
        self._lock = threading.Lock()

    def buy(self, request: PurchaseRequest) -> dict[str, Any]:
        """A new purchase and its notification."""
        period = next((days for name, days in _PERIODS.items() if name in request.productId), 0)
        now = self.clock()
        with self._lock:
            purchase = PlayPurchase(
                token=secrets.token_urlsafe(48),
                product_id=request.productId,
                order_id=f"GPA.3346-{next(self._orders):04d}-{secrets.randbelow(10**4):04d}-{secrets.randbelow(10**5):05d}",
                renewals=0,
                period_days=period,
                started_at=now,
                expires_at=now + timedelta(days=period or 36500),
                state="SUBSCRIPTION_STATE_ACTIVE",
                auto_renew=bool(period),
                account=request.obfuscatedExternalAccountId,
                region=request.regionCode,
            )
            self.purchases[purchase.token] = purchase
        if period:
            return self.push(purchase, {"subscriptionNotification": self._note(purchase, 4)})
        note = {"version": "1.0", "notificationType": 1, "purchaseToken": purchase.token, "sku": purchase.product_id}
        return self.push(purchase, {"oneTimeProductNotification": note})

    @staticmethod
    def _note(purchase: PlayPurchase, kind: int) -> dict[str, Any]:
        return {
            "version": "1.0",
            "notificationType": kind,
            "purchaseToken": purchase.token,
            "subscriptionId": purchase.product_id,
        }

    def change(self, token: str, what: str) -> dict[str, Any]:
        """Something happens to a purchase; answers the push Google would make."""
        with self._lock:
            purchase = self.purchases.get(token)
            if purchase is None:
                raise HTTPException(404, "no such purchase")
            now = self.clock()
            if what == "refund":
                purchase.state, purchase.purchase_state = "SUBSCRIPTION_STATE_EXPIRED", 1
                voided = {
                    "purchaseToken": token,
                    "orderId": purchase.latest_order,
                    "productType": 1 if purchase.period_days else 2,
                    "refundType": 1,
                }
                data: dict[str, Any] = {"voidedPurchaseNotification": voided}
            else:
                kinds = {"renew": 2, "grace": 6, "hold": 5, "expire": 13, "revoke": 12, "cancel": 3}
                if what not in kinds:
                    raise HTTPException(404, f"nothing called {what}")
                if what == "renew":
                    paid_from = purchase.expires_at
                    if purchase.state == "SUBSCRIPTION_STATE_IN_GRACE_PERIOD":
                        paid_from = purchase.expires_at - timedelta(days=self.grace_days)
                    purchase.renewals += 1
                    purchase.expires_at = max(paid_from, now) + timedelta(days=purchase.period_days)
                    purchase.state = "SUBSCRIPTION_STATE_ACTIVE"
                elif what == "grace":
                    purchase.state = "SUBSCRIPTION_STATE_IN_GRACE_PERIOD"
                    purchase.expires_at += timedelta(days=self.grace_days)
                elif what == "hold":
                    purchase.state = "SUBSCRIPTION_STATE_ON_HOLD"
                elif what in ("expire", "revoke"):
                    purchase.state, purchase.auto_renew = "SUBSCRIPTION_STATE_EXPIRED", False
                    if what == "revoke":
                        purchase.expires_at = now
                elif what == "cancel":
                    purchase.state, purchase.auto_renew = "SUBSCRIPTION_STATE_CANCELED", False
                data = {"subscriptionNotification": self._note(purchase, kinds[what])}
        return self.push(purchase, data)

    def push(self, purchase: PlayPurchase, notification: dict[str, Any]) -> dict[str, Any]:
        """The Pub/Sub push of a developer notification, with its OIDC token minted now."""
        now = self.clock()
        data = {
            "version": "1.0",
            "packageName": self.package_name,
            "eventTimeMillis": str(int(now.timestamp() * 1000)),
            **notification,
        }
        message_id = str(next(self._messages))
        body = {
            "message": {
                "data": base64.b64encode(json.dumps(data).encode()).decode(),
                "messageId": message_id,
                "message_id": message_id,
                "publishTime": _rfc3339(now),
                "publish_time": _rfc3339(now),
                "attributes": {},
            },
            "subscription": "projects/unicornpro-standin/subscriptions/play-rtdn",
        }
        return {
            "purchaseToken": purchase.token,
            "orderId": purchase.latest_order,
            "messageId": message_id,
            "push": body,
            "authorization": f"Bearer {self.oidc_token(now)}",
        }

    def oidc_token(self, now: datetime, *, audience: str | None = None, email: str = PUSH_ACCOUNT) -> str:
        """The OIDC token Pub/Sub signs for a push (an hour's life)."""
        claims = {
            "iss": GOOGLE_ISSUER,
            "aud": audience or self.push_audience,
            "azp": "100000000000000000046",
            "sub": "100000000000000000046",
            "email": email,
            "email_verified": True,
            "iat": int(now.timestamp()),
            "exp": int((now + timedelta(hours=1)).timestamp()),
        }
        return jwt.encode(claims, self.keys.push_key, algorithm="RS256", headers={"kid": PUSH_KEY_ID})

    def deliver(self, answer: dict[str, Any]) -> None:
        """Push to the configured URL (logged, never raised)."""
        if not self.push_url:
            return
        try:
            httpx.post(
                self.push_url, json=answer["push"], headers={"Authorization": answer["authorization"]}, timeout=10
            )
        except httpx.HTTPError as error:
            log.warning("could not push Google Play notification %s: %s", answer["messageId"], error)

    def issue_access_token(self, assertion: str) -> dict[str, Any]:
        """OAuth 2.0's JWT bearer grant: an access token for the service account's signed assertion."""
        public = self.keys.account_key.public_key()
        try:
            claims = jwt.decode(assertion, public, algorithms=["RS256"], options={"verify_aud": False})
        except jwt.PyJWTError:
            raise HTTPException(400, "invalid_grant") from None
        if claims.get("iss") != SERVICE_ACCOUNT:
            raise HTTPException(400, "invalid_grant")
        token = secrets.token_urlsafe(32)
        self.access_tokens.add(token)
        return {"access_token": token, "expires_in": 3600, "token_type": "Bearer"}

    def check_access(self, request: Request) -> None:
        """The Developer API wants one of the access tokens issued."""
        header = request.headers.get("authorization", "")
        if not header.lower().startswith("bearer ") or header[7:] not in self.access_tokens:
            raise HTTPException(401, "UNAUTHENTICATED")

    def subscription(self, token: str) -> dict[str, Any] | None:
        """subscriptionsv2.get."""
        purchase = self.purchases.get(token)
        if purchase is None or not purchase.period_days:
            return None
        found: dict[str, Any] = {
            "kind": "androidpublisher#subscriptionPurchaseV2",
            "regionCode": purchase.region,
            "startTime": _rfc3339(purchase.started_at),
            "subscriptionState": purchase.state,
            "latestOrderId": purchase.latest_order,
            "acknowledgementState": "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED",
            "testPurchase": {},
            "lineItems": [
                {
                    "productId": purchase.product_id,
                    "expiryTime": _rfc3339(purchase.expires_at),
                    "autoRenewingPlan": {"autoRenewEnabled": purchase.auto_renew},
                }
            ],
        }
        if purchase.account:
            found["externalAccountIdentifiers"] = {"obfuscatedExternalAccountId": purchase.account}
        return found

    def product(self, product_id: str, token: str) -> dict[str, Any] | None:
        """purchases.products.get."""
        purchase = self.purchases.get(token)
        if purchase is None or purchase.period_days or purchase.product_id != product_id:
            return None
        found: dict[str, Any] = {
            "kind": "androidpublisher#productPurchase",
            "purchaseTimeMillis": str(int(purchase.started_at.timestamp() * 1000)),
            "purchaseState": purchase.purchase_state,
            "consumptionState": 0,
            "orderId": purchase.order_id,
            "purchaseType": 0,
            "acknowledgementState": 1,
            "regionCode": purchase.region,
        }
        if purchase.account:
            found["obfuscatedExternalAccountId"] = purchase.account
        return found


def create_google_play_standin(stand_in: GooglePlayStandIn) -> FastAPI:
    """The stand-in's HTTP app."""
    app = FastAPI(title="Google Play stand-in", docs_url="/standin/docs", openapi_url="/standin/openapi.json")
    app.state.stand_in = stand_in

    def answered(answer: dict[str, Any], notify: bool) -> dict[str, Any]:
        if notify:
            stand_in.deliver(answer)
        return answer

    @app.post("/standin/purchases")
    def buy(body: PurchaseRequest, notify: bool = True) -> dict[str, Any]:
        return answered(stand_in.buy(body), notify)

    @app.post("/standin/purchases/{token}/{what}")
    def change(token: str, what: str, notify: bool = True) -> dict[str, Any]:
        return answered(stand_in.change(token, what), notify)

    @app.get("/standin/health")
    def health() -> dict[str, bool]:
        return {"ok": True}

    @app.post("/token")
    def token(grant_type: str = Form(...), assertion: str = Form(...)) -> dict[str, Any]:
        if grant_type != "urn:ietf:params:oauth:grant-type:jwt-bearer":
            raise HTTPException(400, "unsupported_grant_type")
        return stand_in.issue_access_token(assertion)

    @app.get("/oauth2/v3/certs")
    def certs() -> dict[str, Any]:
        return stand_in.keys.jwks()

    prefix = "/androidpublisher/v3/applications/{package}/purchases"

    @app.get(prefix + "/subscriptionsv2/tokens/{token}")
    def subscription(package: str, token: str, request: Request) -> dict[str, Any]:
        stand_in.check_access(request)
        found = stand_in.subscription(token) if package == stand_in.package_name else None
        if found is None:
            raise HTTPException(404, "The purchase token was not found.")
        return found

    @app.get(prefix + "/products/{product_id}/tokens/{token}")
    def product(package: str, product_id: str, token: str, request: Request) -> dict[str, Any]:
        stand_in.check_access(request)
        found = stand_in.product(product_id, token) if package == stand_in.package_name else None
        if found is None:
            raise HTTPException(404, "The purchase token was not found.")
        return found

    return app
