"""Google Play: the Developer API's purchase lookups (subscriptionsv2.get, products.get) with an access token from a
service account (``google-auth``), and the Real-time Developer Notifications' Pub/Sub push, whose OIDC token is
verified against Google's published keys (PyJWT's JWKS client) at the injected clock's time: google-auth's own
``verify_oauth2_token`` reads the system clock, which the test clock cannot move.

An RTDN says only which purchase changed; its state is looked up (Google's advice), so a notification never carries
anything we record without asking Google.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import jwt
from google.auth.transport.requests import Request as GoogleRequest
from google.oauth2 import service_account

from domain.app_stores.facts import NoticeKind, Store, StoreNotice, StoreState, StoreStatus, StoreTransaction
from domain.errors import DomainError, ErrorCode

log = logging.getLogger(__name__)

SCOPE = "https://www.googleapis.com/auth/androidpublisher"
GOOGLE_ISSUERS = ("accounts.google.com", "https://accounts.google.com")
SKEW = timedelta(minutes=5)

# subscriptionNotification.notificationType
_SUBSCRIPTION_KINDS = {
    1: NoticeKind.RENEWED,  # RECOVERED
    2: NoticeKind.RENEWED,
    3: NoticeKind.AUTO_RENEW_CHANGED,  # CANCELED: auto-renewal off, access to the end
    4: NoticeKind.PURCHASED,
    5: NoticeKind.BILLING_RETRY,  # ON_HOLD
    6: NoticeKind.GRACE_PERIOD,
    7: NoticeKind.AUTO_RENEW_CHANGED,  # RESTARTED
    12: NoticeKind.REVOKED,
    13: NoticeKind.EXPIRED,
}
_STATES = {
    "SUBSCRIPTION_STATE_ACTIVE": StoreState.ACTIVE,
    "SUBSCRIPTION_STATE_CANCELED": StoreState.ACTIVE,  # auto-renewal off; paid to its expiry
    "SUBSCRIPTION_STATE_IN_GRACE_PERIOD": StoreState.GRACE_PERIOD,
    "SUBSCRIPTION_STATE_ON_HOLD": StoreState.BILLING_RETRY,
    "SUBSCRIPTION_STATE_PAUSED": StoreState.EXPIRED,
    "SUBSCRIPTION_STATE_EXPIRED": StoreState.EXPIRED,
}


def _moment(value: str | None) -> datetime | None:
    if not value:
        return None
    return datetime.fromisoformat(value.replace("Z", "+00:00")).astimezone(UTC)


def _refused(why: str) -> DomainError:
    log.warning("refused a Google Play notification: %s", why)
    return DomainError(ErrorCode.STORE_PROOF_REFUSED, f"the Google Play notification did not verify: {why}")


def original_order(order_id: str) -> str:
    """A renewal's order id less its ``..N`` suffix: the purchase's own."""
    return order_id.split("..", 1)[0]


class PlayStore:
    """The ``GooglePlay`` port over the Developer API and Pub/Sub push."""

    def __init__(
        self,
        *,
        package_name: str,
        api_url: str,
        service_account_info: dict[str, Any],
        push_audience: str,
        push_service_account: str,
        certs_url: str,
        timeout: float = 10.0,
    ) -> None:
        self.package_name = package_name
        self._api_url = api_url.rstrip("/")
        self._credentials = service_account.Credentials.from_service_account_info(  # type: ignore[no-untyped-call]
            service_account_info, scopes=[SCOPE]
        )
        self._audience = push_audience
        self._push_account = push_service_account
        self._keys = jwt.PyJWKClient(certs_url, cache_keys=True, lifespan=3600, timeout=int(timeout))
        self._http = httpx.Client(timeout=timeout)
        self._lock = threading.Lock()

    def close(self) -> None:
        """Release the HTTP pool."""
        self._http.close()

    # Real-time Developer Notifications

    def verify_push(self, authorization: str | None, now: datetime) -> None:
        """The push's OIDC token: signed by Google's key, for our audience, from our push subscription's service
        account, and current at ``now`` (-350 otherwise; the router answers it 401)."""
        if not authorization or not authorization.lower().startswith("bearer "):
            raise _refused("no bearer token")
        token = authorization[7:].strip()
        try:
            key = self._keys.get_signing_key_from_jwt(token)
            claims = jwt.decode(
                token,
                key.key,
                algorithms=["RS256"],
                audience=self._audience,
                options={"verify_exp": False, "verify_iat": False, "verify_nbf": False, "require": ["exp", "iat"]},
            )
        except (jwt.PyJWTError, httpx.HTTPError) as error:
            raise _refused(type(error).__name__) from None
        if claims.get("iss") not in GOOGLE_ISSUERS:
            raise _refused("another issuer")
        if claims.get("email") != self._push_account or claims.get("email_verified") is not True:
            raise _refused("another service account")
        issued, expires = (datetime.fromtimestamp(int(claims[name]), tz=UTC) for name in ("iat", "exp"))
        if issued > now + SKEW or expires <= now - SKEW:
            raise _refused("a token outside its time (a replay)")

    def read_notice(self, body: bytes) -> StoreNotice:
        """A push body's notification: the message id, when Pub/Sub published it, what kind, which purchase."""
        try:
            envelope = json.loads(body)
            message = envelope["message"]
            data = json.loads(base64.b64decode(message["data"], validate=True))
            message_id = str(message.get("messageId") or message["message_id"])
            published = _moment(message.get("publishTime") or message.get("publish_time"))
        except (ValueError, KeyError, TypeError, binascii.Error):
            raise _refused("not a Pub/Sub push of a developer notification") from None
        if not isinstance(data, dict) or data.get("packageName") != self.package_name or published is None:
            raise _refused("another app's notification")
        if "subscriptionNotification" in data:
            note = data["subscriptionNotification"]
            kind = _SUBSCRIPTION_KINDS.get(int(note.get("notificationType", 0)), NoticeKind.OTHER)
            subtype = f"subscription/{note.get('notificationType')}"
            return StoreNotice(
                Store.GOOGLE_PLAY,
                message_id,
                kind,
                subtype,
                published,
                None,
                purchase_token=note.get("purchaseToken"),
                product_id=note.get("subscriptionId"),
            )
        if "oneTimeProductNotification" in data:
            note = data["oneTimeProductNotification"]
            kind = NoticeKind.PURCHASED if int(note.get("notificationType", 0)) == 1 else NoticeKind.OTHER
            return StoreNotice(
                Store.GOOGLE_PLAY,
                message_id,
                kind,
                f"one-time/{note.get('notificationType')}",
                published,
                None,
                purchase_token=note.get("purchaseToken"),
                product_id=note.get("sku"),
            )
        if "voidedPurchaseNotification" in data:
            note = data["voidedPurchaseNotification"]
            return StoreNotice(
                Store.GOOGLE_PLAY,
                message_id,
                NoticeKind.REFUNDED,
                f"voided/{note.get('orderId')}",
                published,
                None,
                purchase_token=note.get("purchaseToken"),
            )
        return StoreNotice(Store.GOOGLE_PLAY, message_id, NoticeKind.OTHER, "test", published, None)

    # The Developer API

    def _bearer(self) -> str:
        with self._lock:
            if not self._credentials.valid:
                self._credentials.refresh(GoogleRequest())
            return str(self._credentials.token)

    def _get(self, path: str) -> dict[str, Any] | None:
        url = f"{self._api_url}/androidpublisher/v3/applications/{self.package_name}/purchases/{path}"
        try:
            answer = self._http.get(url, headers={"Authorization": f"Bearer {self._bearer()}"})
        except (httpx.HTTPError, OSError) as error:  # google-auth's token call raises its own TransportError too
            log.warning("Google Play's API is unreachable: %s", error)
            raise DomainError(ErrorCode.STORE_UNAVAILABLE, "Google Play did not answer") from None
        except Exception as error:
            log.warning("Google Play's token could not be had: %s", error)
            raise DomainError(ErrorCode.STORE_UNAVAILABLE, "Google Play did not answer") from None
        if answer.status_code in (400, 404, 410):
            return None
        if answer.status_code != 200:
            log.warning("Google Play's API answered %s for %s", answer.status_code, path.split("/")[0])
            raise DomainError(ErrorCode.STORE_UNAVAILABLE, "Google Play did not answer")
        found: dict[str, Any] = answer.json()
        return found

    def lookup(self, product_id: str, purchase_token: str) -> StoreStatus:
        """The purchase's state now; -350 for a token Google does not know (a forged one)."""
        subscription = self._get(f"subscriptionsv2/tokens/{purchase_token}")
        if subscription is not None and subscription.get("lineItems"):
            return self._subscription_status(subscription, purchase_token)
        if not product_id:
            raise DomainError(ErrorCode.STORE_PROOF_REFUSED, "Google Play knows no such subscription")
        product = self._get(f"products/{product_id}/tokens/{purchase_token}")
        if product is None:
            raise DomainError(ErrorCode.STORE_PROOF_REFUSED, "Google Play knows no such purchase")
        return self._product_status(product, product_id, purchase_token)

    def _subscription_status(self, found: dict[str, Any], token: str) -> StoreStatus:
        item = found["lineItems"][0]
        order = str(found.get("latestOrderId") or "")
        started = _moment(found.get("startTime"))
        expires = _moment(item.get("expiryTime"))
        if not order or started is None or expires is None or not item.get("productId"):
            raise DomainError(ErrorCode.STORE_PROOF_REFUSED, "a subscription without its order, product or times")
        state = _STATES.get(str(found.get("subscriptionState")), StoreState.EXPIRED)
        renewing = bool((item.get("autoRenewingPlan") or {}).get("autoRenewEnabled"))
        # During a grace period Google reports the grace's end as the expiry.
        grace_until = expires if state is StoreState.GRACE_PERIOD else None
        transaction = StoreTransaction(
            store=Store.GOOGLE_PLAY,
            transaction_id=order,
            original_transaction_id=original_order(order),
            product_id=str(item["productId"]),
            purchased_at=started,
            expires_at=expires,
            renewing=True,
            environment="Test" if found.get("testPurchase") is not None else "Production",
            account_token=(found.get("externalAccountIdentifiers") or {}).get("obfuscatedExternalAccountId"),
            country_code=found.get("regionCode"),
            purchase_token=token,
        )
        return StoreStatus(state, transaction, renewing, grace_until, str(found.get("subscriptionState", "")))

    def _product_status(self, found: dict[str, Any], product_id: str, token: str) -> StoreStatus:
        order = str(found.get("orderId") or "")
        bought = found.get("purchaseTimeMillis")
        if not order or bought is None:
            raise DomainError(ErrorCode.STORE_PROOF_REFUSED, "a purchase without its order or time")
        transaction = StoreTransaction(
            store=Store.GOOGLE_PLAY,
            transaction_id=order,
            original_transaction_id=original_order(order),
            product_id=product_id,
            purchased_at=datetime.fromtimestamp(int(bought) / 1000, tz=UTC),
            expires_at=None,
            renewing=False,
            environment="Test" if found.get("purchaseType") == 0 else "Production",
            account_token=found.get("obfuscatedExternalAccountId"),
            country_code=found.get("regionCode"),
            purchase_token=token,
        )
        purchase_state = int(found.get("purchaseState", 1))
        state = StoreState.ACTIVE if purchase_state == 0 else StoreState.REVOKED
        return StoreStatus(state, transaction, False, None, f"purchaseState/{purchase_state}")
