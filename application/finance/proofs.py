"""Proofs finance hands to auditors, in the shape the independent verifier reads (tests/integration/audit/
tlogcheck): inclusion proofs of a payment's events or of one event in a checkpoint signed now, the proof that an
older signed tree is a prefix of a newer one, and the newest signed checkpoints."""

from __future__ import annotations

import json
from typing import Any
from uuid import UUID

from application.finance.services import FinanceServices
from domain.errors import DomainError, ErrorCode
from domain.payments.payment import Payment
from domain.staff.disclosure import Disclosure


def notifications_of(services: FinanceServices, originator_id: UUID) -> list[int]:
    """The log positions of every event of one aggregate, oldest first."""
    found: list[int] = []
    at_most = services.store.max_notification_id()
    while at_most > 0:
        last = services.store.last_notification_of(originator_id, at_most)
        if last is None:
            break
        found.append(last)
        at_most = last - 1
    return found[::-1]


def payment_events(services: FinanceServices, merchant_uid: str) -> list[dict[str, Any]]:
    """Every event of a payment: its position in the log, topic, time and version."""
    payment_id = Payment.id_for(merchant_uid)
    positions = notifications_of(services, payment_id)
    events: list[Any] = list(services.store.events.get(payment_id))
    if not events:
        raise DomainError(ErrorCode.NOT_FOUND, f"no payment {merchant_uid}")
    return [
        {
            "notification_id": position,
            "topic": type(event).TOPIC,
            "at": event.timestamp.isoformat(),
            "version": event.originator_version,
        }
        for position, event in zip(positions, events, strict=False)
    ]


def proof_document(
    services: FinanceServices, notification_ids: list[int], label: str, disclosure: Disclosure
) -> dict[str, Any]:
    """Inclusion proofs of these events in a checkpoint signed now, as the document the independent verifier
    reads (``verifier_key``, ``inclusions`` of ``note``/``record``/``index``/``proof``), with each event's
    topic and position beside it. A proof is the event's whole record: refused (403) for an event holding a field
    the member the ``disclosure`` is for may not see whole."""
    audit = services.open_audit()
    try:
        signed = audit.sign_checkpoint(services.clock.now())
        proofs = [audit.inclusion(notification_id, signed) for notification_id in notification_ids]
        key = audit.signer.verifier_key()
    except LookupError as missing:
        raise DomainError(ErrorCode.NOT_FOUND, str(missing)) from None
    finally:
        audit.close()
    for proof in proofs:
        if not disclosure.may_prove(json.loads(proof["record"])["topic"]):
            raise DomainError(
                ErrorCode.FORBIDDEN, "an event holds a field withheld from you: finance proves it from the command line"
            )
    return {
        "subject": label,
        "verifier_key": key,
        "checkpoint": signed.note,
        "inclusions": [
            {
                "name": f"event-{proof['notification_id']}",
                "note": signed.note,
                "record": proof["record"],
                "index": proof["leaf_index"],
                "proof": proof["inclusion_path"],
                "topic": json.loads(proof["record"])["topic"],
                "leaf_hash": proof["leaf_hash"],
            }
            for proof in proofs
        ],
        "consistency": [],
    }


def checkpoints(services: FinanceServices, limit: int = 10) -> dict[str, Any]:
    """The newest signed checkpoints, the tree's size and the verifier key."""
    audit = services.open_audit()
    try:
        return {
            "verifier_key": audit.signer.verifier_key(),
            "tree_size": audit.tree.size(),
            "checkpoints": audit.checkpoints.newest(limit),
        }
    finally:
        audit.close()


def consistency(services: FinanceServices, old_size: int, new_size: int) -> dict[str, Any]:
    """The proof that the older signed tree is a prefix of the newer, in the verifier's shape."""
    audit = services.open_audit()
    try:
        old, new = audit.checkpoints.at_size(old_size), audit.checkpoints.at_size(new_size)
        if old is None or new is None or old_size > new_size:
            raise DomainError(ErrorCode.INVALID_VALUE, "both sizes must be of signed checkpoints, the older first")
        proof = audit.consistency(old, new)
        return {
            **proof,
            "verifier_key": audit.signer.verifier_key(),
            "inclusions": [],
            "consistency": [
                {
                    "name": f"{old_size}-to-{new_size}",
                    "old_note": old.note,
                    "new_note": new.note,
                    "proof": proof["consistency_path"],
                }
            ],
        }
    finally:
        audit.close()
