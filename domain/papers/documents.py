"""Making a payment's receipt or refund note, and recording the SHA-256 of each document the first time it is made."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from dataclasses import dataclass

from domain.catalogue.licences import Catalogue
from domain.clock import Clock
from domain.papers.cash_receipts import papers_of
from domain.papers.papers import PaymentPapers
from domain.papers.receipts import Company, PaperDocument, paper_document
from domain.payments.payment import Payment
from domain.store import Storefront
from events.concurrency import retry_on_conflict
from events.values import Language

log = logging.getLogger(__name__)

Renderer = Callable[[PaperDocument], bytes]


@dataclass(frozen=True)
class MadeDocument:
    """A document's bytes, with its name and SHA-256 (as recorded in the log)."""

    document: PaperDocument
    content: bytes
    sha256: str


def make_document(
    store: Storefront,
    clock: Clock,
    catalogue: Catalogue,
    company: Company,
    render: Renderer,
    *,
    merchant_uid: str,
    kind: str,
    number: int,
    language: Language,
) -> MadeDocument:
    """Make a payment's document from its events; the first time, record its SHA-256 (``papers.DocumentIssued``).

    A later copy must hash the same: one that does not is logged as an error (the log's hash still stands)."""
    events = list(store.repository.event_store.get(Payment.id_for(merchant_uid)))
    document = paper_document(events, kind=kind, number=number, language=language, company=company, catalogue=catalogue)
    content = render(document)
    sha256 = hashlib.sha256(content).hexdigest()

    def record() -> None:
        papers = papers_of(store, merchant_uid) or PaymentPapers.open(merchant_uid, clock.now())
        recorded = papers.document_sha256(kind, number, language.value)
        if recorded is None:
            papers.note_document(kind, number, language.value, sha256, clock.now())
            store.save(papers)
        elif recorded != sha256:
            log.error("document %s of %s made again differs from the one recorded", document.file_name, merchant_uid)

    retry_on_conflict(record)
    return MadeDocument(document, content, sha256)
