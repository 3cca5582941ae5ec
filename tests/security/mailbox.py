"""A customer's mailbox: the mails the workers would send for what the log holds, read from the outbox."""

from __future__ import annotations

import email
import email.header
import email.policy
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit
from uuid import UUID

from api.services import Services
from workers.reactions import REACTIONS
from workers.tasks.mail import deliver_confirmation_mail
from workers.tasks.payments import deliver_purchase_mail


@dataclass(frozen=True)
class Mail:
    """One mail as its recipient reads it."""

    to: str
    subject: str
    text: str

    def links(self, marker: str) -> list[str]:
        """Every link in the mail whose address contains ``marker``."""
        return [word for word in self.text.split() if word.startswith("http") and marker in word]

    def link_query(self, marker: str) -> dict[str, str]:
        """The query of the one link containing ``marker``."""
        [link] = self.links(marker)
        return {name: values[0] for name, values in parse_qs(urlsplit(link).query).items()}


def deliver_mails(services: Services) -> None:
    """What the reactor and the workers do with the receipts and account mails the log calls for (each task run
    twice: delivery is at least once)."""
    store = services.store
    wiring = (services.settings, store, services.views, services.mailer, services.clock)
    for notification in store.recorder.select_notifications(start=1, limit=10_000):
        event = store.mapper.to_domain_event(notification)
        reaction = REACTIONS.get(type(event))
        for index, call in enumerate(reaction(event) if reaction else []):
            task_id = f"Storefront-{notification.id}-{index}"
            for _ in range(2):
                if call.name == "payments.send_purchase_mail":
                    payment = UUID(call.kwargs["payment_id"])
                    deliver_purchase_mail(services, task_id=task_id, payment_id=payment, kind=call.kwargs["kind"])
                elif call.name == "accounts.send_confirmation_mail":
                    account = UUID(call.kwargs["account_id"])
                    claim = call.kwargs.get("claim_id")
                    deliver_confirmation_mail(*wiring, task_id=task_id, account_id=account, claim_id=claim)


def mailbox(services: Services, address: str) -> list[Mail]:
    """The mails delivered to ``address``, oldest first."""
    found = []
    for path in sorted(services.settings.outbox_dir.glob("*.eml"), key=lambda each: each.stat().st_mtime_ns):
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        if str(message["To"]).lower() != address.lower():
            continue
        body = message.get_body(preferencelist=("plain",))
        text = body.get_content() if body is not None else ""
        subject = str(email.header.make_header(email.header.decode_header(str(message["Subject"]))))
        found.append(Mail(str(message["To"]), subject, str(text)))
    return found
