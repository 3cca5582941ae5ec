"""Apple's App Store through Apple's own ``app-store-server-library``: signed transactions and App Store Server
Notifications v2 verified to the trusted root (the x5c chain, Apple's certificate markers, the ES256 signature, the
bundle id, the app id in production, the environment), and the App Store Server API's subscription statuses for the
reconciliation pass. What Apple signed is translated into ``domain/app_stores/facts.py``'s shapes here.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

from appstoreserverlibrary.api_client import APIException, AppStoreServerAPIClient
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.JWSRenewalInfoDecodedPayload import JWSRenewalInfoDecodedPayload
from appstoreserverlibrary.models.JWSTransactionDecodedPayload import JWSTransactionDecodedPayload
from appstoreserverlibrary.models.Type import Type
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException

from domain.app_stores.facts import NoticeKind, Store, StoreNotice, StoreState, StoreStatus, StoreTransaction
from domain.errors import DomainError, ErrorCode

log = logging.getLogger(__name__)

# Currencies' minor-unit digits for Apple's prices (given in milliunits: 1000 = one unit of the currency).
_MINOR_DIGITS = {"KRW": 0, "JPY": 0, "USD": 2}

# Get All Subscription Statuses' numbers.
_STATUSES = {
    1: StoreState.ACTIVE,
    2: StoreState.EXPIRED,
    3: StoreState.BILLING_RETRY,
    4: StoreState.GRACE_PERIOD,
    5: StoreState.REVOKED,
}


def _moment(milliseconds: int | None) -> datetime | None:
    return datetime.fromtimestamp(milliseconds / 1000, tz=UTC) if milliseconds is not None else None


def _refused(what: str, error: Exception) -> DomainError:
    status = getattr(error, "status", None)
    log.warning("refused App Store %s: %s", what, getattr(status, "name", error))
    return DomainError(ErrorCode.STORE_PROOF_REFUSED, f"the App Store's {what} did not verify")


class PointedAppStoreServerAPIClient(AppStoreServerAPIClient):
    """Apple's client for the App Store Server API, at the address the settings give (the stand-in outside
    production; Apple's own otherwise)."""

    def __init__(
        self, signing_key: bytes, key_id: str, issuer_id: str, bundle_id: str, environment: Environment, base_url: str
    ) -> None:
        super().__init__(signing_key, key_id, issuer_id, bundle_id, environment)
        self._base_url = base_url.rstrip("/")


class AppleAppStore:
    """The ``AppStore`` port over Apple's library."""

    def __init__(self, verifier: SignedDataVerifier, api: AppStoreServerAPIClient | None) -> None:
        self._verifier = verifier
        self._api = api

    def verify_transaction(self, signed_transaction: str) -> StoreTransaction:
        """A signed transaction from the app, verified (-350 otherwise)."""
        try:
            decoded = self._verifier.verify_and_decode_signed_transaction(signed_transaction)
        except (VerificationException, ValueError, TypeError) as error:
            raise _refused("signed transaction", error) from None
        return self._transaction(decoded)

    def verify_notification(self, signed_payload: str) -> StoreNotice:
        """A notification, verified (-350 otherwise), with the status it says the purchase is in."""
        try:
            payload = self._verifier.verify_and_decode_notification(signed_payload)
            data = payload.data
            transaction = (
                self._verifier.verify_and_decode_signed_transaction(data.signedTransactionInfo)
                if data is not None and data.signedTransactionInfo
                else None
            )
            renewal = (
                self._verifier.verify_and_decode_renewal_info(data.signedRenewalInfo)
                if data is not None and data.signedRenewalInfo
                else None
            )
        except (VerificationException, ValueError, TypeError) as error:
            raise _refused("notification", error) from None
        if not payload.notificationUUID or payload.signedDate is None:
            raise DomainError(ErrorCode.STORE_PROOF_REFUSED, "a notification without its id or signing date")
        kind_name = payload.rawNotificationType or ""
        subtype = payload.rawSubtype or ""
        signed_at = _moment(payload.signedDate)
        assert signed_at is not None
        kind, status = NoticeKind.OTHER, None
        if transaction is not None:
            kind, status = self._notice_status(kind_name, subtype, self._transaction(transaction), renewal, signed_at)
        return StoreNotice(Store.APP_STORE, payload.notificationUUID, kind, f"{kind_name}/{subtype}", signed_at, status)

    def status(self, original_transaction_id: str) -> StoreStatus:
        """What Apple says of the purchase now: its subscription status, or a one-time purchase's transaction."""
        if self._api is None:
            raise DomainError(ErrorCode.STORE_UNAVAILABLE, "the App Store Server API is not configured")
        try:
            try:
                groups = self._api.get_all_subscription_statuses(original_transaction_id).data or []
            except APIException as error:
                if error.http_status_code != 404:  # 404: not a subscription's (a lifetime purchase), read below
                    raise
                groups = []
            for group in groups:
                for last in group.lastTransactions or []:
                    if last.originalTransactionId != original_transaction_id or not last.signedTransactionInfo:
                        continue
                    transaction = self._transaction(
                        self._verifier.verify_and_decode_signed_transaction(last.signedTransactionInfo)
                    )
                    renewal = (
                        self._verifier.verify_and_decode_renewal_info(last.signedRenewalInfo)
                        if last.signedRenewalInfo
                        else None
                    )
                    state = _STATUSES.get(int(last.rawStatus or 0), StoreState.EXPIRED)
                    if transaction.revoked_at is not None:
                        state = StoreState.REFUNDED
                    return self._status(state, transaction, renewal, "reconciliation")
            info = self._api.get_transaction_info(original_transaction_id)
            if not info.signedTransactionInfo:
                raise DomainError(ErrorCode.STORE_UNAVAILABLE, "the App Store answered no transaction")
            one_time = self._transaction(
                self._verifier.verify_and_decode_signed_transaction(info.signedTransactionInfo)
            )
        except APIException as error:
            log.warning("the App Store Server API answered %s for %s", error.http_status_code, original_transaction_id)
            raise DomainError(ErrorCode.STORE_UNAVAILABLE, "the App Store Server API did not answer") from None
        except VerificationException as error:
            raise _refused("status", error) from None
        except OSError as error:  # requests' connection errors
            log.warning("the App Store Server API is unreachable: %s", error)
            raise DomainError(ErrorCode.STORE_UNAVAILABLE, "the App Store Server API did not answer") from None
        state = StoreState.REFUNDED if one_time.revoked_at is not None else StoreState.ACTIVE
        return StoreStatus(state, one_time, renewing=False, reason="reconciliation")

    def _transaction(self, decoded: JWSTransactionDecodedPayload) -> StoreTransaction:
        purchased_at = _moment(decoded.purchaseDate)
        if not decoded.transactionId or not decoded.originalTransactionId or not decoded.productId or not purchased_at:
            raise DomainError(ErrorCode.STORE_PROOF_REFUSED, "a transaction without its ids, product or date")
        amount = None
        currency = decoded.currency
        if decoded.price is not None and currency in _MINOR_DIGITS:
            amount = decoded.price * 10 ** _MINOR_DIGITS[currency] // 1000
        return StoreTransaction(
            store=Store.APP_STORE,
            transaction_id=decoded.transactionId,
            original_transaction_id=decoded.originalTransactionId,
            product_id=decoded.productId,
            purchased_at=purchased_at,
            expires_at=_moment(decoded.expiresDate),
            renewing=decoded.type is Type.AUTO_RENEWABLE_SUBSCRIPTION,
            environment=decoded.rawEnvironment or "",
            account_token=decoded.appAccountToken,
            amount=amount,
            currency=currency,
            country_code=decoded.storefront,
            revoked_at=_moment(decoded.revocationDate),
            revocation_reason=str(decoded.rawRevocationReason) if decoded.rawRevocationReason is not None else None,
        )

    @staticmethod
    def _status(
        state: StoreState,
        transaction: StoreTransaction,
        renewal: JWSRenewalInfoDecodedPayload | None,
        reason: str,
    ) -> StoreStatus:
        renewing = transaction.renewing
        if renewal is not None and renewal.rawAutoRenewStatus is not None:
            renewing = renewal.rawAutoRenewStatus == 1
        grace_until = _moment(renewal.gracePeriodExpiresDate) if renewal is not None else None
        return StoreStatus(
            state, transaction, renewing, grace_until if state is StoreState.GRACE_PERIOD else None, reason
        )

    def _notice_status(
        self,
        kind_name: str,
        subtype: str,
        transaction: StoreTransaction,
        renewal: JWSRenewalInfoDecodedPayload | None,
        signed_at: datetime,
    ) -> tuple[NoticeKind, StoreStatus | None]:
        reason = f"{kind_name}/{subtype}".rstrip("/")
        running = StoreState.ACTIVE
        if transaction.expires_at is not None and transaction.expires_at <= signed_at:
            running = StoreState.EXPIRED
        kinds: dict[str, tuple[NoticeKind, StoreState]] = {
            "SUBSCRIBED": (NoticeKind.PURCHASED, StoreState.ACTIVE),
            "ONE_TIME_CHARGE": (NoticeKind.PURCHASED, StoreState.ACTIVE),
            "OFFER_REDEEMED": (NoticeKind.PURCHASED, StoreState.ACTIVE),
            "DID_RENEW": (NoticeKind.RENEWED, StoreState.ACTIVE),
            "DID_FAIL_TO_RENEW": (
                (NoticeKind.GRACE_PERIOD, StoreState.GRACE_PERIOD)
                if subtype == "GRACE_PERIOD"
                else (NoticeKind.BILLING_RETRY, StoreState.BILLING_RETRY)
            ),
            "GRACE_PERIOD_EXPIRED": (NoticeKind.BILLING_RETRY, StoreState.BILLING_RETRY),
            "EXPIRED": (NoticeKind.EXPIRED, StoreState.EXPIRED),
            "REFUND": (NoticeKind.REFUNDED, StoreState.REFUNDED),
            "REVOKE": (NoticeKind.REVOKED, StoreState.REVOKED),
            "DID_CHANGE_RENEWAL_STATUS": (NoticeKind.AUTO_RENEW_CHANGED, running),
        }
        found = kinds.get(kind_name)
        if found is None:
            return NoticeKind.OTHER, None
        kind, state = found
        if state is StoreState.GRACE_PERIOD and (renewal is None or renewal.gracePeriodExpiresDate is None):
            state = StoreState.BILLING_RETRY  # a grace period Apple gave no end for is no grace here
        return kind, self._status(state, transaction, renewal, reason)


def root_certificates(paths: list[str]) -> list[bytes]:
    """The trusted roots (DER), from PEM or DER files."""
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization

    roots: list[bytes] = []
    for path in paths:
        with open(path, "rb") as file:
            data = file.read()
        certificate = (
            x509.load_pem_x509_certificate(data) if b"-----BEGIN" in data else x509.load_der_x509_certificate(data)
        )
        roots.append(certificate.public_bytes(serialization.Encoding.DER))
    return roots


def environment_named(name: str) -> Environment:
    """``Sandbox`` or ``Production`` (Apple's names)."""
    return Environment(name)


__all__: list[Any] = ["AppleAppStore", "PointedAppStoreServerAPIClient", "environment_named", "root_certificates"]
