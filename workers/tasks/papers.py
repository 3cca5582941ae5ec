"""A payment's cash receipt, brought in line with the payment after it settles and after each refund; its
tax-invoice request withdrawn once it was refunded in full."""

from __future__ import annotations

import logging
from typing import cast
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError

from bootstrap import Services
from domain.papers.cash_receipts import CashReceiptGateway, settle_cash_receipt
from domain.papers.tax_invoices import withdraw_tax_invoice_if_refunded
from domain.payments.gateway import GatewayUnreachableError
from domain.payments.payment import Payment
from integrations.portone.gateway import CashReceiptRefusedError
from workers.celery_app import ServicesTask
from workers.tasks.retried import retried_task

log = logging.getLogger(__name__)


def sync_cash_receipt(services: Services, *, payment_id: UUID) -> str:
    """Issue, cancel or issue again the cash receipt of a payment as its state asks (``none`` without one); a
    payment refunded in full has its tax-invoice request withdrawn."""
    try:
        payment: Payment = services.store.repository.get(payment_id)
    except AggregateNotFoundError:
        return "none"
    withdraw_tax_invoice_if_refunded(services.store, services.clock, merchant_uid=payment.merchant_uid)
    gateway = cast(CashReceiptGateway, services.payments)
    return settle_cash_receipt(services.store, services.clock, gateway, merchant_uid=payment.merchant_uid)


@retried_task(
    "papers.sync_cash_receipt", retry_on=(GatewayUnreachableError, CashReceiptRefusedError, OSError), max_retries=10
)
def sync_cash_receipt_task(self: ServicesTask, payment_id: str) -> str:
    """Celery entry point: the payment's cash receipt, in line with the payment (retried while the gateway fails)."""
    return sync_cash_receipt(self.services, payment_id=UUID(payment_id))
