"""Runbook, "A refund whose answer was lost": the refund stays pending (reserved in the log), a second one is refused
while it is, the day's reconciliation shows it until it is settled, and the settling pass (beat's, or
``settle-pending`` at once) reads PortOne and records what it made: the log level with the gateway, once."""

from __future__ import annotations

import csv
import io
from datetime import date, timedelta

import pytest

from bootstrap import Services
from config.settings import Settings
from domain.catalogue.licences import Catalogue
from domain.licences.licence import LicenceState
from domain.store import Storefront
from eventlog.tracking import wait_for_views
from integrations.portone.gateway import PortOneGateway
from tests.integration.audit.purchases import buy
from tests.integration.portone.harness import RunningSandbox, SharedClock
from tests.support import running_projector
from workers import operator

pytestmark = pytest.mark.integration

DAY = date(2026, 11, 2)  # the sandbox's test clock starts at 12:00 that day in Korea


def test_a_refund_whose_answer_was_lost_is_found_by_reconciliation_and_recorded(
    settings: Settings,
    store: Storefront,
    sandbox: RunningSandbox,
    gateway: PortOneGateway,
    domain_clock: SharedClock,
    catalogue: Catalogue,
    capsys: pytest.CaptureFixture[str],
) -> None:
    bought = buy(store, domain_clock, gateway, sandbox, catalogue, email="give.back@example.com")
    services = Services.build(settings, clock=domain_clock, payments=gateway)

    def operate(*argv: str) -> tuple[int, str]:
        code = operator.run(operator.parse_args(argv), services)
        said = capsys.readouterr()
        return code, said.out + said.err

    def mismatches() -> list[tuple[str, str]]:
        """The day's reconciliation, as the operator reads it."""
        assert wait_for_views(views, store.name, ["payments"], store.max_notification_id(), timeout=20)
        _, said = operate("reconcile", DAY.isoformat())
        return [(row["merchant_uid"], row["mismatch"]) for row in csv.DictReader(io.StringIO(said)) if row["mismatch"]]

    try:
        with running_projector(settings) as views:
            assert operate("staff", "create-owner", "boss@example.com", "Boss")[0] == 0
            boss = ("--actor", "boss@example.com")
            sandbox.plan_faults(path_prefix="/payments/cancel", lose_next=1)
            code, said = operate("refund", bought.merchant_uid, "--reason", "customer asked", *boss)
            assert code == 1, said
            assert "pending" in said
            sandbox.plan_faults()

            # Cancelled at PortOne, reserved in the log; nobody refunds it again meanwhile.
            lost = {(bought.merchant_uid, "status"), (bought.merchant_uid, "cancel_amount")}
            assert set(mismatches()) == lost
            code, said = operate("refund", bought.merchant_uid, "--reason", "again", *boss)
            assert (code, "-330" in said) == (2, True), said

            # The pass leaves it to its own caller for a minute, then reads PortOne and records the refund.
            assert operate("settle-pending")[1] == ""
            domain_clock_moves(sandbox, minutes=2)
            code, said = operate("settle-pending")
            assert (code, said.split()) == (0, [bought.merchant_uid, "refund", "refunded", "4999"])
            assert mismatches() == []
            code, said = operate("record-refund", bought.merchant_uid, "--reason", "again", *boss)
            assert (code, said.split(" refunded")[0]) == (0, "recorded 0")  # once only
    finally:
        services.close()
    assert store.repository.get(bought.user_licence_id).state is LicenceState.REVOKED


def domain_clock_moves(sandbox: RunningSandbox, minutes: int) -> None:
    """The shared test clock (the sandbox's and the store's) moves on."""
    sandbox.clock.advance(timedelta(minutes=minutes))
