"""PortOne (iamport) V1 payment gateway: the client, and a local sandbox in ``.sandbox``."""

from integrations.portone.client import PortOneClient
from integrations.portone.errors import (
    AuthError,
    BillingKeyNotFoundError,
    GatewayUnavailableError,
    PaymentNotFoundError,
    PortOneError,
)
from integrations.portone.models import (
    CancelHistoryEntry,
    CardDetails,
    Customer,
    Payment,
    PaymentStatus,
    Prepared,
    RefundAccount,
)

__all__ = [
    "AuthError",
    "BillingKeyNotFoundError",
    "CancelHistoryEntry",
    "CardDetails",
    "Customer",
    "GatewayUnavailableError",
    "Payment",
    "PaymentNotFoundError",
    "PaymentStatus",
    "PortOneClient",
    "PortOneError",
    "Prepared",
    "RefundAccount",
]
