"""Finance exports chosen events; each row is a leaf of the signed checkpoint the manifest names."""

from __future__ import annotations

import csv
import json
from datetime import timedelta
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from domain.store import Storefront
from eventlog.audit import Audit
from eventlog.audit import __main__ as audit_cli
from eventlog.checkpoints import open_checkpoint
from eventlog.merkle import leaf_hash, verify_inclusion
from tests.fakes import ManualClock
from tests.support import START, register

pytestmark = pytest.mark.integration


def a_week_of_registrations(store: Storefront) -> None:
    """One customer a day for a week: each day an account.Registered and an account.EmailClaimed."""
    clock = ManualClock(START)
    for day in range(7):
        register(store, f"day{day}@example.com", clock)
        clock.advance(timedelta(days=1))


def export(audit: Audit, *argv: str) -> int:
    return audit_cli.run(audit_cli.parse_args(["export", *argv, "--quiet"]), audit)


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet"])
def test_an_export_of_one_event_type_over_three_days_holds_exactly_those_events(
    store: Storefront, audit: Audit, tmp_path: Path, fmt: str
) -> None:
    a_week_of_registrations(store)
    since, until = START + timedelta(days=2), START + timedelta(days=5)
    output = tmp_path / f"registrations.{fmt}"
    assert (
        export(
            audit,
            str(output),
            "--since",
            since.isoformat(),
            "--until",
            until.isoformat(),
            "--topic",
            "account.Registered",
        )
        == 0
    )

    if fmt == "jsonl":
        rows = [json.loads(line) for line in output.read_text().splitlines()]
    elif fmt == "csv":
        with output.open(newline="") as exported:
            rows = list(csv.DictReader(exported))
    else:
        rows = pq.read_table(output).to_pylist()
    assert [row["topic"] for row in rows] == ["account.Registered"] * 3
    assert [json.loads(row["state"])["email"] for row in rows] == [
        "day2@example.com",
        "day3@example.com",
        "day4@example.com",
    ]

    described = json.loads((tmp_path / f"registrations.{fmt}.manifest.json").read_text())
    assert described["rows"] == 3
    assert described["selection"]["topics"] == ["account.Registered"]
    checkpoint = open_checkpoint(described["checkpoint"]["note"], described["verifier_key"])
    assert checkpoint.size == described["checkpoint"]["tree_size"] == 14
    for row in rows:
        leaf = leaf_hash(row["record"].encode("ascii"))
        assert leaf.hex() == row["leaf_hash"]
        index = int(row["leaf_index"])
        assert verify_inclusion(
            leaf, index, checkpoint.size, audit.tree.inclusion_proof(index, checkpoint.size), checkpoint.root
        )


def test_an_export_of_a_family_of_topics_and_of_everything(store: Storefront, audit: Audit, tmp_path: Path) -> None:
    a_week_of_registrations(store)
    assert export(audit, str(tmp_path / "all.jsonl")) == 0
    assert len((tmp_path / "all.jsonl").read_text().splitlines()) == 14
    assert export(audit, str(tmp_path / "accounts.jsonl"), "--topic", "account.*") == 0
    assert len((tmp_path / "accounts.jsonl").read_text().splitlines()) == 14
    assert export(audit, str(tmp_path / "none.jsonl"), "--topic", "payment.*") == 0
    assert (tmp_path / "none.jsonl").read_text() == ""
