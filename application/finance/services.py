"""What finance's use cases need of a process's services (the composition root's ``Services`` has it all)."""

from __future__ import annotations

from typing import Protocol

from domain.catalogue.versions import FollowedCatalogue
from domain.clock import Clock
from domain.payments.gateway import PaymentGateway
from domain.ports import Mailer, ObjectStore
from domain.store import Storefront
from eventlog.audit import Audit
from eventlog.database import ViewDatabase


class FinanceServices(Protocol):
    """The log, the views, the clock, the gateway, mail, the object store and the transparency log's tools."""

    store: Storefront
    views: ViewDatabase
    clock: Clock
    payments: PaymentGateway
    mailer: Mailer
    objects: ObjectStore
    catalogues: FollowedCatalogue

    @property
    def base_url(self) -> str:
        """The site's public address (the back office's pages are under ``/admin``)."""

    @property
    def previous_verifier_keys(self) -> tuple[str, ...]:
        """Verifier keys of earlier signing keys: checkpoints they signed still verify."""

    def open_audit(self) -> Audit:
        """The transparency log's tree, checkpoints and signer (the caller closes it)."""
