"""Issue 40 findings 1 and 8, as the probe ran them (the walk of every way out is test_secrets_never_leave.py).

As it ran: a finance member exported ``account.*``, ``staff.*`` and ``session.*`` as JSONL and got every customer's
password hash, the refresh secrets' hashes and staff's sealed one-time-code secrets; ``GET
/staff/finance/proofs/events/{n}`` handed out the password hash; a marketing member downloaded proofs holding a card's
mask and read licence keys whole on the customer page. Now those fields are withheld (the row keeps its leaf hash,
not its record), such proofs are refused (403), and marketing reads masked keys; the log itself is unchanged.
"""

from __future__ import annotations

import json
from uuid import UUID

import pytest

from application.finance.jobs import run_job
from domain.staff.disclosure import WITHHELD
from tests.integration.purchases.desk import Desk
from tests.security.test_secrets_never_leave import a_world

pytestmark = pytest.mark.integration


def positions(desk: Desk, topic: str) -> list[int]:
    found = desk.services.store.recorder.select_notifications(start=1, limit=100_000, topics=[topic])
    return [notification.id for notification in found]


def test_finance_and_marketing_get_no_secret_the_probe_got(desk: Desk) -> None:
    world = a_world(desk)
    finance, marketing = world.members["finance"], world.members["marketing"]
    head = desk.services.store.max_notification_id()

    started = finance.call(
        "POST", "/finance/exports", json={"format": "jsonl", "topics": ["account.*", "staff.*", "session.*"]}
    )
    assert run_job(desk.services, UUID(started.json()["jobId"]))
    exported = finance.call("GET", f"/finance/jobs/{started.json()['jobId']}/files/events.jsonl")
    rows = [json.loads(line) for line in exported.text.splitlines()]
    withheld = [row for row in rows if row["withheld"]]
    assert {field for row in withheld for field in row["withheld"].split(",")} == {
        "password_hash",
        "secret_hash",
        "sealed_secret",
    }
    for row in withheld:
        state = json.loads(row["state"])
        assert all(state[field] == WITHHELD for field in row["withheld"].split(","))
        assert row["record"] == "" and len(row["leaf_hash"]) == 64, "still placed in the signed tree"

    [registered] = positions(desk, "account.Registered")[:1]
    refused = finance.call("GET", f"/finance/proofs/events/{registered}")
    assert (refused.status_code, refused.json()["errorCode"]) == (403, 403)
    [paid] = positions(desk, "payment.Succeeded")[:1]
    assert marketing.call("GET", f"/proofs/{paid}").status_code == 403, "the proof would carry the card's mask"
    assert finance.call("GET", f"/finance/proofs/events/{paid}").status_code == 200, "finance may refund: it may"

    page = marketing.call("GET", f"/customers/{world.account_id}").json()
    assert [row["licence_key"] for row in page["licences"]] == [f"****-****-****-{world.licence_key[-4:]}"]
    assert world.licence_key not in json.dumps(page)
    recorded = desk.services.store.recorder.select_notifications(start=head + 1, limit=100)
    assert {str(notification.originator_id) for notification in recorded} == {started.json()["jobId"]}, (
        "only the finance job was recorded (its request, claim, progress, files and end): reading wrote nothing"
    )
