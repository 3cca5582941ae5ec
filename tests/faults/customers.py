"""Customers of a running stack over HTTP, as their browsers would be: guests who buy, members who subscribe, and
the operator's clock that lets a month pass. Calls go to each API address in turn, as a load balancer sends them."""

from __future__ import annotations

import email
import email.policy
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import count
from pathlib import Path
from typing import Any

import httpx

from tests.faults.stack import V1
from tests.integration.purchases.desk import GOOD_CARD, PASSWORD

ADMIN_TOKEN = "faults-admin"
TRANSIENT = (httpx.TransportError, httpx.HTTPStatusError)


@dataclass
class Customers:
    """Browsers of the running site; ``patience`` is how long a customer keeps repeating a call that fails."""

    apis: list[str]
    sandbox_url: str
    patience: float = 60
    outbox: Path | None = None
    http: httpx.Client = field(default_factory=lambda: httpx.Client(timeout=30))
    paid_guests: list[str] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)
    calls: Counter[str] = field(default_factory=Counter)
    _turn: Iterator[int] = field(default_factory=count)

    def post(self, path: str, **kwargs: Any) -> Any:
        """A call repeated until answered (a dead API is being restarted; 503 is the store or broker away)."""
        deadline = time.monotonic() + self.patience
        while True:
            api = self.apis[next(self._turn) % len(self.apis)]
            try:
                answer = self.http.post(f"{api}{V1}{path}", **kwargs)
                self.calls[api] += 1
                if answer.status_code != 503:
                    answer.raise_for_status()
                    return answer.json()
            except TRANSIENT:
                if time.monotonic() > deadline:
                    raise
            time.sleep(0.3)

    def buy_as_guest(self, address: str) -> None:
        """Order, pay in the PG window, confirm (repeated until answered: a confirm is idempotent). With several
        APIs the order and the confirm go to different ones: read-your-writes across them."""
        order = self.post(
            "/payments/licenses/new",
            json={"licenseId": 121, "countryCode": "KR", "paymentMethod": "creditCard", "email": address},
        )
        window = {"pg": order["pg"], "pay_method": order["payMethod"], "merchant_uid": order["merchantUid"]}
        window |= {"name": order["name"], "amount": order["amount"], "currency": order["currency"]}
        window |= {"buyer_email": address, "card_number": GOOD_CARD["cardNumber"]}
        paid = self.http.post(f"{self.sandbox_url}/sandbox/checkout", json=window).json()
        confirmed = self.post(
            "/payments/licenses/new/confirm", json={"impUid": paid["imp_uid"], "merchantUid": order["merchantUid"]}
        )
        assert confirmed["state"] == "paid", confirmed
        self.paid_guests.append(address)

    def keep_buying(self, buyer: int = 0) -> None:
        """Purchases one after another until told to stop."""
        for number in count():
            if self.stop.is_set():
                return
            self.buy_as_guest(f"guest{buyer}-{number}@example.com")

    def subscribe(self, address: str) -> None:
        """Register, confirm the address from the mail, log in and subscribe monthly with a typed card."""
        self.post("/accounts", json={"email": address, "pw": PASSWORD, "language": "ko"})
        self.open_confirmation_mail(address)
        token = self.post("/auth/login", json={"email": address, "pw": PASSWORD})["accessToken"]
        started = self.post(
            "/payments/licenses/subscribe/new/new-billingkey",
            headers={"Authorization": f"Bearer {token}"},
            json={"licenseId": 111, "countryCode": "KR", "card": GOOD_CARD},
        )
        assert started["status"] == "active", started

    def open_confirmation_mail(self, address: str) -> None:
        """Wait for the confirmation mail in the stack's outbox and open its link (as the mailbox's owner does)."""
        assert self.outbox is not None, "a customer who registers needs the stack's outbox"
        deadline = time.monotonic() + self.patience
        while True:
            for path in self.outbox.glob("*.eml"):
                message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
                body = message.get_body(preferencelist=("plain",))
                text = body.get_content() if body is not None and str(message["To"]) == address else ""
                link = next((word for word in str(text).split() if "/accounts/confirm?t=" in word), None)
                if link:
                    self.http.get(link, follow_redirects=False)
                    return
            assert time.monotonic() < deadline, f"no confirmation mail for {address}"
            time.sleep(0.2)

    def a_month_passes(self) -> None:
        """Every process's clock moves 30 days on."""
        self.post("/test-harness/clock/advance", headers={"X-Admin-Token": ADMIN_TOKEN}, json={"days": 30})
