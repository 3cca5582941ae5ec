"""Finance's back office over HTTP, on both stores: yesterday's revenue equals the payments the log holds (summed
here from the stored records, not through our views), a payment's proof file is accepted by the Go verifier, a
refund made at PortOne behind our back shows in the next morning's reconciliation and is explained, a byte changed
in the log raises the alarm naming the event, and the month-end pack's manifest holds each file's SHA-256."""

from __future__ import annotations

import email
import email.policy
import hashlib
import io
import json
import re
import zipfile
from collections.abc import Iterator
from contextlib import redirect_stdout
from datetime import UTC, date, datetime, timedelta
from typing import Any
from uuid import UUID

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.services import Services
from api.staff_session import CSRF_HEADER, SESSION_COOKIE
from application.finance.jobs import run_job
from application.finance.reconciliation import reconcile_mornings
from config.settings import Settings
from domain.business_time import BUSINESS_TIME
from domain.catalogue.licences import Catalogue
from domain.staff.actions import StaffAction
from domain.store import Storefront
from eventlog.tracking import wait_for_views
from events.finance import JobRequested
from integrations.portone.gateway import PortOneGateway
from tests.fakes import PlainHasher
from tests.integration.audit.conftest import Intruder
from tests.integration.audit.purchases import buy
from tests.integration.audit.test_independent_verifier import check_with_go
from tests.integration.portone.harness import RunningSandbox, SharedClock, TestClock
from tests.staff_codes import enrol_with_code_app, sign_in_with_code
from tests.support import running_projector
from workers.operator import parse_args, run
from workers.reactions import REACTIONS

pytestmark = pytest.mark.integration

FINANCE = "/web/unicornpro/v1/staff/finance"
STAFF = "/web/unicornpro/v1/staff"
DAY = date(2026, 11, 2)  # the sandbox's test clock starts at 12:00 that day in Korea


class Member:
    """A staff member's browser: their session cookie and CSRF value, and their one-time-code secret."""

    def __init__(self, client: TestClient, clock: SharedClock, link: str) -> None:
        self.client, self.clock = client, clock
        self.secret, answer = enrol_with_code_app(client, STAFF, link, clock.now())
        self._keep(answer)

    def _keep(self, answer: Any) -> None:
        self.email = answer.json()["member"]["email"]
        self.cookie = self.client.cookies[SESSION_COOKIE]
        self.csrf = answer.json()["csrf"]
        self.client.cookies.clear()

    def sign_in_again(self) -> None:
        answer = sign_in_with_code(self.client, STAFF, self.email, self.secret, self.clock.now())
        assert answer.status_code == 200, answer.text
        self._keep(answer)

    def call(self, method: str, path: str, json_body: object = None, **params: object) -> Any:
        self.client.cookies.clear()
        self.client.cookies.set(SESSION_COOKIE, self.cookie)
        answer = self.client.request(
            method, path, headers={CSRF_HEADER: self.csrf}, json=json_body, params=params or None
        )
        if SESSION_COOKIE in answer.cookies:
            self.cookie = answer.cookies[SESSION_COOKIE]
        self.client.cookies.clear()
        return answer


@pytest.fixture
def desk(
    settings: Settings, gateway: PortOneGateway, domain_clock: SharedClock
) -> Iterator[tuple[Services, TestClient]]:
    services = Services.build(settings, clock=domain_clock, payments=gateway, hasher=PlainHasher())
    with TestClient(create_app(services=services)) as client:
        yield services, client
    services.close()


def _owner_link(services: Services) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        assert run(parse_args(["staff", "create-owner", "boss@example.com", "Boss"]), services) == 0
    found = re.search(r"(http\S+/admin/enrol\?token=\S+)", out.getvalue())
    assert found
    return found.group(1)


def _invite(owner: Member, email: str, role: str) -> str:
    answer = owner.call("POST", f"{STAFF}/members", {"email": email, "name": email, "roles": [role], "reason": "hired"})
    assert answer.status_code == 201, answer.text
    return str(answer.json()["enrolmentLink"])


def revenue_in_the_log(store: Storefront, day: date) -> dict[str, int]:
    """Yesterday's revenue per currency from the stored records alone: each payment.Succeeded paid that Korean
    day counts its payment.Ordered amount."""
    ordered: dict[str, dict[str, Any]] = {}
    revenue: dict[str, int] = {}
    for notification in store.recorder.select_notifications(start=1, limit=100_000):
        state = json.loads(bytes(notification.state))
        if notification.topic == "payment.Ordered":
            ordered[str(notification.originator_id)] = state
        if notification.topic == "payment.Succeeded":
            paid_at = datetime.fromisoformat(
                state["paid_at"]["_data_"] if isinstance(state["paid_at"], dict) else state["paid_at"]
            )
            if paid_at.astimezone(BUSINESS_TIME).date() == day:
                order = ordered[str(notification.originator_id)]
                currency = order["currency"]["_data_"] if isinstance(order["currency"], dict) else order["currency"]
                revenue[currency] = revenue.get(currency, 0) + int(order["amount"])
    return revenue


def _mails(settings: Settings) -> list[tuple[str, str, str]]:
    """Every mail in the outbox: to, subject, text."""
    found = []
    for path in settings.outbox_dir.glob("*.eml"):
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        body = message.get_body(preferencelist=("plain",))
        found.append((str(message["To"]), str(message["Subject"]), body.get_content() if body else ""))
    return found


def _job(member: Member, services: Services, job_id: str) -> dict[str, Any]:
    """A job the member asked for, as a worker runs it: the API only recorded the member's request, whose reaction
    is the worker's task; a second delivery of that task does nothing."""
    assert member.call("GET", f"{FINANCE}/jobs/{job_id}").json()["state"] == "queued"
    asked = services.store.recorder.select_notifications(start=1, limit=100_000, topics=["finance.JobRequested"])
    [request] = [
        event
        for event in map(services.store.mapper.to_domain_event, asked)
        if isinstance(event, JobRequested) and str(event.originator_id) == job_id
    ]
    [call] = REACTIONS[JobRequested](request)
    assert call.name == "finance.run_job"
    assert run_job(services, UUID(call.kwargs["job_id"])) is True
    assert run_job(services, UUID(call.kwargs["job_id"])) is False
    finished: dict[str, Any] = member.call("GET", f"{FINANCE}/jobs/{job_id}").json()
    assert finished["state"] in ("done", "failed"), finished
    return finished


def test_finance_proves_yesterdays_revenue_reconciles_the_morning_and_raises_the_alarm_on_a_changed_byte(
    settings: Settings,
    store: Storefront,
    desk: tuple[Services, TestClient],
    sandbox: RunningSandbox,
    gateway: PortOneGateway,
    domain_clock: SharedClock,
    clock: TestClock,
    catalogue: Catalogue,
    intruder: Intruder,
) -> None:
    services, client = desk
    owner = Member(client, domain_clock, _owner_link(services))
    finance = Member(client, domain_clock, _invite(owner, "money@example.com", "finance"))
    support = Member(client, domain_clock, _invite(owner, "help@example.com", "support"))
    dollars = buy(store, domain_clock, gateway, sandbox, catalogue, email="usd@example.com")
    won = buy(
        store, domain_clock, gateway, sandbox, catalogue, licence_id=121, country_code="KR", email="k@example.com"
    )

    with running_projector(settings) as views:
        assert wait_for_views(views, store.name, ["payments", "ledger"], store.max_notification_id(), timeout=20)

        # Support cannot see the ledger; finance can.
        assert support.call("GET", f"{FINANCE}/ledger").status_code == 403

        # A refund made in PortOne's console, behind our back; then the night passes to 09:05 in Korea.
        with sandbox.client() as portone:
            portone.cancel(imp_uid=won.imp_uid, amount=500, checksum=won.amount, reason="refund behind our back")
        morning = datetime.combine(DAY + timedelta(days=1), datetime.min.time(), BUSINESS_TIME) + timedelta(
            hours=9, minutes=5
        )
        clock.advance(morning.astimezone(UTC) - domain_clock.now())
        finance.sign_in_again()

        # Yesterday's revenue is the sum of the payments the log holds for that day.
        ledger = finance.call(
            "GET", f"{FINANCE}/ledger", since=DAY.isoformat(), until=(DAY + timedelta(days=1)).isoformat()
        )
        assert ledger.status_code == 200, ledger.text
        shown = {row["currency"]: row["revenue"] for row in ledger.json()["series"] if row["period"] == DAY.isoformat()}
        assert shown == revenue_in_the_log(store, DAY) == {"USD": dollars.amount, "KRW": won.amount}
        assert set(ledger.json()["breakdown"]) == {"currency", "product", "plan", "payMethod"}
        assert all(set(row) == {"currency", "payments", "givenAway"} for row in ledger.json()["coupons"])

        # Each figure drills down to its payments, each payment to its events and a proof the Go verifier accepts.
        entries = finance.call("GET", f"{FINANCE}/ledger/entries", period=DAY.isoformat(), currency="USD").json()
        assert [entry["merchantUid"] for entry in entries] == [dollars.merchant_uid]
        opened = finance.call("GET", f"{FINANCE}/payments/{dollars.merchant_uid}").json()
        assert [event["topic"] for event in opened["events"]][:1] == ["payment.Ordered"]
        assert (opened["payment"]["merchantUid"], opened["payment"]["cancelAmount"]) == (dollars.merchant_uid, 0)
        assert all(event["notificationId"] >= 1 for event in opened["events"])
        proof = finance.call("GET", f"{FINANCE}/proofs/payments/{dollars.merchant_uid}")
        assert proof.headers["content-disposition"].startswith("attachment")
        document = proof.json()
        outcomes = check_with_go(document)
        assert outcomes and set(outcomes.values()) == {"ok"}
        assert len(outcomes) == len(opened["events"])

        # Beat's morning run finds the refund made behind our back; finance explains it.
        assert len(reconcile_mornings(services)) == 4  # yesterday, and the three mornings before it
        assert reconcile_mornings(services) == []  # once a morning
        [day] = [found for found in finance.call("GET", f"{FINANCE}/reconciliation").json() if found["day"] == str(DAY)]
        [first] = day["runs"]
        assert first["trigger"] == "schedule"
        assert {(m["merchantUid"], m["kind"]) for m in first["mismatches"]} == {(won.merchant_uid, "cancel_amount")}
        assert any(to == "money@example.com" and "Reconciliation" in subject for to, subject, _ in _mails(settings))
        explained = finance.call(
            "POST",
            f"{FINANCE}/reconciliation/{DAY.isoformat()}/explain",
            {"run": 1, "merchantUid": won.merchant_uid, "kind": "cancel_amount", "note": "refunded by phone"},
        )
        assert explained.status_code == 200, explained.text
        assert explained.json()["runs"][0]["mismatches"][0]["resolution"]["outcome"] == "explained"
        again = finance.call("POST", f"{FINANCE}/reconciliation/{DAY.isoformat()}/run", {"reason": "after the call"})
        assert [r["trigger"] for r in again.json()["runs"]] == ["schedule", "staff"]
        referred = finance.call(
            "POST",
            f"{FINANCE}/reconciliation/{DAY.isoformat()}/refund-request",
            {"run": 2, "merchantUid": won.merchant_uid, "kind": "cancel_amount", "note": "give the rest back"},
        )
        assert referred.status_code == 200, referred.text
        resolution = referred.json()["runs"][1]["mismatches"][0]["resolution"]
        assert (resolution["outcome"], resolution["requestId"]) == ("referred", referred.json()["requestId"])
        actions = finance.call("GET", f"{FINANCE}/staff-actions", action="explain-mismatch").json()
        assert [(a["subject"], a["reason"]) for a in actions] == [(won.merchant_uid, "refunded by phone")]
        assert actions[0]["notificationId"] >= 1 and actions[0]["memberId"]
        was = finance.call("GET", f"{FINANCE}/as-of/payment/{won.merchant_uid}", at=morning.isoformat()).json()
        assert (was["kind"], was["key"], was["then"]["version"]) == ("payment", won.merchant_uid, was["now"]["version"])

        # The month-end pack: its manifest names each file's SHA-256.
        packing = finance.call("POST", f"{FINANCE}/close-packs", {"month": "2026-11"})
        pack = _job(finance, services, packing.json()["jobId"])
        assert pack["state"] == "done", pack
        archive = finance.call("GET", f"{FINANCE}/jobs/{pack['jobId']}/files/close-2026-11.zip").content
        with zipfile.ZipFile(io.BytesIO(archive)) as packed:
            manifest = json.loads(packed.read("manifest.json"))
            assert set(manifest["files"]) == {"ledger.csv", "payments.csv", "refunds.csv", "checkpoint.txt"}
            for name, described in manifest["files"].items():
                assert hashlib.sha256(packed.read(name)).hexdigest() == described["sha256"]
            assert dollars.merchant_uid in packed.read("payments.csv").decode()

        # A clean log verifies; one byte changed behind the app's back raises the alarm naming the event.
        clean = _job(finance, services, finance.call("POST", f"{FINANCE}/integrity/verify").json()["jobId"])
        assert clean["result"]["ok"] is True, clean
        integrity = finance.call("GET", f"{FINANCE}/integrity").json()
        assert integrity["verifierKey"] and integrity["treeSize"] >= integrity["checkpoints"][0]["treeSize"] > 0
        assert (integrity["verifications"][0]["jobId"], integrity["alarm"]) == (clean["jobId"], None)
        listed = finance.call("GET", f"{FINANCE}/jobs").json()
        assert {pack["jobId"], clean["jobId"]} <= {job["jobId"] for job in listed}
        assert finance.call("GET", f"{FINANCE}/alarm").json()["alarm"] is None
        ordered = document["inclusions"][0]
        changed = int(ordered["name"].removeprefix("event-"))
        state = intruder.state_of(changed)
        old = b"@" if b"@" in state else state[-2:-1]
        intruder.change_one_byte(changed, old, b"#" if old != b"#" else b"!")
        failed = _job(finance, services, finance.call("POST", f"{FINANCE}/integrity/verify").json()["jobId"])
        assert failed["state"] == "done", failed
        assert failed["result"]["ok"] is False and failed["result"]["badNotificationId"] == changed
        alarm = finance.call("GET", f"{FINANCE}/alarm").json()["alarm"]
        # Each job finance asked for is a staff action of theirs: who took which data out, and when.
        requested = finance.call("GET", f"{FINANCE}/staff-actions", action=StaffAction.FINANCE_JOB).json()
        assert {(a["subject"], a["details"]["kind"]) for a in requested} == {
            (pack["jobId"], "close-pack"),
            (clean["jobId"], "verify"),
            (failed["jobId"], "verify"),
        }
        assert alarm["result"]["badNotificationId"] == changed
        alarms = [body for to, subject, body in _mails(settings) if "ALARM" in subject and to == "money@example.com"]
        assert alarms and f"notification id {changed}" in alarms[0]
        verified = [
            n for n in store.recorder.select_notifications(start=1, limit=100_000) if n.topic == "finance.LogVerified"
        ]
        assert len(verified) == 2
