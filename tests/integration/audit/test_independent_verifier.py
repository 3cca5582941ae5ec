"""An implementation we did not write (Go's golang.org/x/mod/sumdb/note and tlog) checks our signatures and proofs."""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from domain.catalogue.licences import Catalogue
from domain.payments.payment import LicenceEffect
from domain.staff.member import create_first_owner
from domain.staff.support import refund as staff_refund
from domain.store import Storefront
from eventlog.audit import Audit
from eventlog.audit import __main__ as audit_cli
from integrations.portone.gateway import PortOneGateway
from tests.conftest import require
from tests.integration.audit.purchases import buy, refund
from tests.integration.portone.harness import RunningSandbox, SharedClock, TestClock
from tests.support import register

pytestmark = pytest.mark.integration

CHECKER = Path(__file__).parent / "tlogcheck" / "main.go"
GO_PATH = Path("/usr/share/gocode")  # where Debian's golang-golang-x-mod-dev puts golang.org/x/mod


def go_checker() -> list[str]:
    go = shutil.which("go") or "/usr/lib/go/bin/go"
    available = Path(go).exists() and (GO_PATH / "src/golang.org/x/mod/sumdb/tlog").is_dir()
    require("Go with golang.org/x/mod (Debian: golang-go golang-golang-x-mod-dev)", available)
    return [go, "run", str(CHECKER)]


def check_with_go(document: dict[str, object]) -> dict[str, str]:
    env = {
        **os.environ,
        "GO111MODULE": "off",
        "GOPATH": str(GO_PATH),
        "GOCACHE": str(Path(tempfile.gettempdir()) / "storefront-go-cache"),
        "GOFLAGS": "",
    }
    finished = subprocess.run(
        go_checker(), input=json.dumps(document), capture_output=True, text=True, env=env, timeout=300, check=False
    )
    assert finished.returncode == 0, finished.stderr
    outcomes = {}
    for line in finished.stdout.splitlines():
        verdict, _, rest = line.partition(" ")
        name, _, reason = rest.partition(":")
        outcomes[name] = verdict if verdict == "ok" else f"fail:{reason}"
    return outcomes


def test_go_verifies_the_signed_checkpoints_and_every_proof_of_a_payment_and_refuses_forgeries(
    store: Storefront,
    audit: Audit,
    sandbox: RunningSandbox,
    gateway: PortOneGateway,
    domain_clock: SharedClock,
    clock: TestClock,
    catalogue: Catalogue,
    capsys: pytest.CaptureFixture[str],
) -> None:
    register(store, "early@example.com")
    yesterday = audit.sign_checkpoint(domain_clock.now())
    bought = buy(store, domain_clock, gateway, sandbox, catalogue)
    refund(store, domain_clock, clock, gateway, bought, 1000)

    assert audit_cli.run(audit_cli.parse_args(["prove", "--merchant-uid", bought.merchant_uid]), audit) == 0
    proved = json.loads(capsys.readouterr().out)
    topics = [json.loads(event["record"])["topic"] for event in proved["events"]]
    assert topics == [
        "payment.Ordered",
        "payment.BuyerAccountOpened",
        "payment.Succeeded",
        "payment.RefundReserved",
        "payment.Refunded",
    ]
    today = audit.checkpoints.latest()
    assert today is not None
    consistency = audit.consistency(yesterday, today)

    key = audit.signer.verifier_key()
    inclusions = [
        {"name": f"event-{event['notification_id']}", "note": proved["checkpoint"], **_proof(event)}
        for event in proved["events"]
    ]
    first = proved["events"][0]
    size = today.checkpoint.size
    forged_record = first["record"].replace('"originator_version":1', '"originator_version":2')
    assert forged_record != first["record"]
    forgeries = [
        {"name": "changed-record", "note": proved["checkpoint"], **_proof(first), "record": forged_record},
        {"name": "moved-leaf", "note": proved["checkpoint"], **_proof(first), "index": first["leaf_index"] + 1},
        {
            "name": "forged-note",
            "note": proved["checkpoint"].replace(f"\n{size}\n", f"\n{size + 1}\n", 1),
            **_proof(first),
        },
    ]
    rewritten_path = list(consistency["consistency_path"])
    rewritten_path[0] = "00" * 32
    outcomes = check_with_go(
        {
            "verifier_key": key,
            "inclusions": inclusions + forgeries,
            "consistency": [
                {"name": "yesterday-to-today", **_notes(consistency), "proof": consistency["consistency_path"]},
                {"name": "rewritten-history", **_notes(consistency), "proof": rewritten_path},
            ],
        }
    )
    assert {name: outcomes[name] for name in ("yesterday-to-today", *[i["name"] for i in inclusions])} == {
        name: "ok" for name in ("yesterday-to-today", *[i["name"] for i in inclusions])
    }
    for refused in ("changed-record", "moved-leaf", "forged-note", "rewritten-history"):
        assert outcomes[refused].startswith("fail"), (refused, outcomes[refused])


def _proof(event: dict[str, object]) -> dict[str, object]:
    return {"record": event["record"], "index": event["leaf_index"], "proof": event["inclusion_path"]}


def _notes(consistency: dict[str, object]) -> dict[str, object]:
    return {"old_note": consistency["old_checkpoint"], "new_note": consistency["new_checkpoint"]}


def test_who_refunded_a_customer_has_an_inclusion_proof_go_accepts(
    store: Storefront,
    audit: Audit,
    sandbox: RunningSandbox,
    gateway: PortOneGateway,
    domain_clock: SharedClock,
    catalogue: Catalogue,
    capsys: pytest.CaptureFixture[str],
) -> None:
    owner = create_first_owner(store, domain_clock, email="boss@example.com", name="Boss")
    bought = buy(store, domain_clock, gateway, sandbox, catalogue)
    refunded = staff_refund(
        store,
        domain_clock,
        gateway,
        owner.id,
        merchant_uid=bought.merchant_uid,
        amount=1000,
        reason="the customer asked",
        approval_limits={"USD": 10_000, "KRW": 100_000},
        licence_effect=LicenceEffect.KEEP,
    )
    assert refunded.refunded == 1000
    [acted] = [
        notification.id
        for notification in store.recorder.select_notifications(start=1, limit=10_000)
        if notification.topic == "staff.Acted"
    ]

    assert audit_cli.run(audit_cli.parse_args(["prove", "--notification-id", str(acted)]), audit) == 0
    proved = json.loads(capsys.readouterr().out)
    [event] = proved["events"]
    record = json.loads(event["record"])
    assert record["topic"] == "staff.Acted"
    # The leaf is the stored record: the acting member is its originator, the reason is in its state.
    state = json.loads(base64.b64decode(record["state"]))
    assert (record["originator_id"], state["action"], state["reason"]) == (
        str(owner.id),
        "refund",
        "the customer asked",
    )
    outcomes = check_with_go(
        {
            "verifier_key": audit.signer.verifier_key(),
            "inclusions": [{"name": "staff-refund", "note": proved["checkpoint"], **_proof(event)}],
            "consistency": [],
        }
    )
    assert outcomes["staff-refund"] == "ok"
