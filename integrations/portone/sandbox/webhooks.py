"""Webhook delivery: ``POST {imp_uid, merchant_uid, status}`` as JSON to the notice URL.

Deliveries run on one background thread, in order, after the sandbox call that caused
them has returned (like PortOne, which notifies asynchronously). A failed delivery is
logged and recorded, never raised.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections import deque
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

import httpx

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Webhook:
    """One notification to send."""

    url: str
    imp_uid: str
    merchant_uid: str
    status: str

    def body(self) -> dict[str, str]:
        """The JSON body PortOne sends."""
        return {"imp_uid": self.imp_uid, "merchant_uid": self.merchant_uid, "status": self.status}


@dataclass(frozen=True, slots=True)
class Delivery:
    """The outcome of one delivery attempt."""

    webhook: Webhook
    at: datetime
    http_status: int | None
    error: str | None

    @property
    def ok(self) -> bool:
        """Whether the receiver answered 2xx."""
        return self.http_status is not None and 200 <= self.http_status < 300


class Notifier(Protocol):
    """Something that sends webhooks."""

    def notify(self, webhook: Webhook) -> None:
        """Send (or queue) one webhook; must not raise."""

    def close(self) -> None:
        """Stop sending."""


class WebhookSender:
    """Sends webhooks on a background thread and remembers the last deliveries."""

    def __init__(
        self,
        *,
        timeout: float = 5.0,
        transport: httpx.BaseTransport | None = None,
        history: int = 200,
    ) -> None:
        self._timeout = timeout
        self._transport = transport
        self._http: httpx.Client | None = None  # created on the delivery thread, when first needed
        self._queue: queue.Queue[Webhook | None] = queue.Queue()
        self._deliveries: deque[Delivery] = deque(maxlen=history)
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._closed = False

    def notify(self, webhook: Webhook) -> None:
        """Queue a webhook for delivery."""
        with self._lock:
            if self._closed:
                logger.warning("portone sandbox: webhook for %s dropped (closed)", webhook.imp_uid)
                return
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="portone-sandbox-webhooks", daemon=True)
                self._thread.start()
        self._queue.put(webhook)

    def deliveries(self) -> list[Delivery]:
        """The most recent delivery attempts, oldest first."""
        with self._lock:
            return list(self._deliveries)

    def close(self) -> None:
        """Deliver what is queued (bounded wait), then stop."""
        with self._lock:
            self._closed = True
            thread = self._thread
        if thread is not None:
            self._queue.put(None)
            thread.join(timeout=10)
        if self._http is not None:
            self._http.close()

    def _run(self) -> None:
        while True:
            webhook = self._queue.get()
            try:
                if webhook is None:
                    return
                self._deliver(webhook)
            finally:
                self._queue.task_done()

    def _deliver(self, webhook: Webhook) -> None:
        status: int | None = None
        error: str | None = None
        if self._http is None:
            self._http = httpx.Client(timeout=self._timeout, transport=self._transport)
        try:
            response = self._http.post(webhook.url, json=webhook.body())
            status = response.status_code
            if not 200 <= status < 300:
                error = f"HTTP {status}"
        except httpx.HTTPError as exc:
            error = f"{type(exc).__name__}: {exc}"
        except Exception as exc:  # a webhook must never take the sandbox down
            error = f"{type(exc).__name__}: {exc}"
        if error is None:
            logger.info("portone sandbox: webhook %s %s -> %s", webhook.imp_uid, webhook.status, status)
        else:
            logger.warning(
                "portone sandbox: webhook %s %s to %s failed: %s",
                webhook.imp_uid,
                webhook.status,
                webhook.url,
                error,
            )
        with self._lock:
            self._deliveries.append(Delivery(webhook=webhook, at=datetime.now(UTC), http_status=status, error=error))
