"""Finance reconciles a day of payments with PortOne: a clean day agrees, and mismatches planted at the gateway show."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from datetime import date

import pytest

from bootstrap import Services
from config.settings import Settings
from domain.catalogue.licences import Catalogue
from domain.store import Storefront
from eventlog.tracking import wait_for_views
from integrations.portone.gateway import PortOneGateway
from tests.integration.audit.purchases import buy
from tests.integration.portone.harness import RunningSandbox, SharedClock
from tests.support import running_projector
from workers import operator

pytestmark = pytest.mark.integration

DAY = date(2026, 11, 2)  # the sandbox's test clock starts at 12:00 that day in Korea


def test_a_reconciliation_of_a_day_finds_every_mismatch_planted_at_the_gateway(
    settings: Settings,
    store: Storefront,
    sandbox: RunningSandbox,
    gateway: PortOneGateway,
    domain_clock: SharedClock,
    catalogue: Catalogue,
    capsys: pytest.CaptureFixture[str],
) -> None:
    dollars = buy(store, domain_clock, gateway, sandbox, catalogue, email="usd@example.com")
    won = buy(
        store, domain_clock, gateway, sandbox, catalogue, licence_id=121, country_code="KR", email="k@example.com"
    )
    other = buy(
        store, domain_clock, gateway, sandbox, catalogue, licence_id=111, country_code="KR", email="o@example.com"
    )
    services = Services.build(settings, clock=domain_clock, payments=gateway)

    def reconcile() -> tuple[int, list[dict[str, str]]]:
        code = operator.run(operator.parse_args(["reconcile", DAY.isoformat()]), services)
        return code, list(csv.DictReader(io.StringIO(capsys.readouterr().out)))

    try:
        with running_projector(settings) as views:
            assert wait_for_views(views, store.name, ["payments"], store.max_notification_id(), timeout=20)
            assert reconcile() == (0, [])

            with sandbox.client() as portone:
                portone.cancel(imp_uid=won.imp_uid, amount=500, checksum=won.amount, reason="refund behind our back")
            sandbox.checkout(
                pg="nice",
                pay_method="card",
                merchant_uid="ghost-order-1",
                name="not ours",
                amount=1200,
                currency="KRW",
                buyer_email="ghost@example.com",
                card_number="4111111111111111",
            )
            _change_amount_at_the_gateway(sandbox, dollars.imp_uid, 4998)

            code, rows = reconcile()
    finally:
        services.close()
    assert code == 1
    found = {(row["merchant_uid"], row["mismatch"]) for row in rows}
    assert found == {
        (won.merchant_uid, "cancel_amount"),
        ("ghost-order-1", "missing_in_log"),
        (dollars.merchant_uid, "amount"),
    }
    assert other.merchant_uid not in {row["merchant_uid"] for row in rows}
    amount = next(row for row in rows if row["mismatch"] == "amount")
    assert (amount["ours"], amount["gateway"]) == ("4999", "4998")


def _change_amount_at_the_gateway(sandbox: RunningSandbox, imp_uid: str, amount: int) -> None:
    """Someone edits the gateway's record (here: the sandbox's own database)."""
    conn = sqlite3.connect(sandbox.db_path)
    try:
        with conn:
            (data,) = conn.execute("SELECT data FROM payments WHERE imp_uid = ?", (imp_uid,)).fetchone()
            record = json.loads(data)
            record["amount"] = amount
            conn.execute("UPDATE payments SET data = ? WHERE imp_uid = ?", (json.dumps(record), imp_uid))
    finally:
        conn.close()
