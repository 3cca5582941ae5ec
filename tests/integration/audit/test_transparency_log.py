"""Finance verifies the log: every event is a leaf of a signed Merkle tree, and editing the database shows."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from config.settings import Settings
from domain.store import Storefront
from eventlog.audit import Audit
from eventlog.audit import __main__ as audit_cli
from eventlog.checkpoints import open_checkpoint
from eventlog.merkle import MemoryTree, leaf_hash, verify_consistency, verify_inclusion
from eventlog.transparency import leaf_of, read_log
from tests.fakes import ManualClock
from tests.integration.audit.conftest import Intruder
from tests.support import START, register

pytestmark = pytest.mark.integration

TODAY = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
ROOT = Path(__file__).resolve().parents[3]


def customers_register(store: Storefront, count: int, first: int = 0) -> None:
    clock = ManualClock(START)
    for n in range(first, first + count):
        register(store, f"customer{n}@example.com", clock)
        clock.advance(timedelta(hours=1))


def verify(audit: Audit, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = audit_cli.run(audit_cli.parse_args(["verify", "--quiet"]), audit)
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_a_clean_log_verifies_against_its_signed_checkpoint(
    store: Storefront, audit: Audit, capsys: pytest.CaptureFixture[str]
) -> None:
    customers_register(store, 5)
    signed = audit.sign_checkpoint(TODAY)
    assert signed.checkpoint.size == store.max_notification_id() == 10
    assert open_checkpoint(signed.note, audit.signer.verifier_key()) == signed.checkpoint
    kept = (audit.checkpoints.directory / "latest.txt").read_text()  # type: ignore[operator]
    assert kept == signed.note

    code, said = verify(audit, capsys)
    assert code == 0, said
    assert "OK: 10 events verified" in said

    customers_register(store, 1, first=5)
    code, said = verify(audit, capsys)
    assert code == 0, said
    assert "2 newer events not yet in the tree" in said


def test_the_stored_tree_is_the_rfc_9162_tree_of_the_stored_records(store: Storefront, audit: Audit) -> None:
    customers_register(store, 7)
    audit.tree.extend()
    reference = MemoryTree(leaf_of(n) for n in read_log(store.recorder))
    assert reference.size == audit.tree.size() == 14
    for size in range(15):
        assert audit.tree.root(size) == (size, reference.root(size))
    for index in range(14):
        proof = audit.tree.inclusion_proof(index, 14)
        assert verify_inclusion(reference.node(0, index), index, 14, proof, reference.root())
    for old in range(15):
        proof = audit.tree.consistency_proof(old, 14)
        assert verify_consistency(old, 14, reference.root(old), reference.root(), proof)


def test_racing_followers_append_each_event_exactly_once(store: Storefront, audit: Audit) -> None:
    customers_register(store, 10)
    followers = [threading.Thread(target=audit.tree.extend) for _ in range(3)]
    for follower in followers:
        follower.start()
    for follower in followers:
        follower.join()
    leaves = list(audit.tree.leaves())
    assert [leaf.notification_id for leaf in leaves] == [n.id for n in read_log(store.recorder)]
    assert [leaf.index for leaf in leaves] == list(range(20))


def test_changing_one_byte_of_one_stored_event_makes_verify_name_it(
    store: Storefront, audit: Audit, intruder: Intruder, capsys: pytest.CaptureFixture[str]
) -> None:
    customers_register(store, 5)
    audit.sign_checkpoint(TODAY)
    intruder.change_one_byte(7, b"x", b"y")  # customer3@example.com becomes customer3@eyample.com
    code, said = verify(audit, capsys)
    assert code == 1
    assert "first bad notification id: 7" in said


def test_deleting_a_stored_event_makes_verify_name_it(
    store: Storefront, audit: Audit, intruder: Intruder, capsys: pytest.CaptureFixture[str]
) -> None:
    customers_register(store, 5)
    audit.sign_checkpoint(TODAY)
    intruder.delete(4)
    code, said = verify(audit, capsys)
    assert code == 1
    assert "event 4 is missing from the log" in said
    assert "first bad notification id: 4" in said


def test_deleting_the_newest_signed_event_makes_verify_name_it(
    store: Storefront, audit: Audit, intruder: Intruder, capsys: pytest.CaptureFixture[str]
) -> None:
    customers_register(store, 3)
    audit.sign_checkpoint(TODAY)
    intruder.delete(6)
    code, said = verify(audit, capsys)
    assert code == 1
    assert "first bad notification id: 6" in said


def test_reordering_two_stored_events_makes_verify_name_the_first(
    store: Storefront, audit: Audit, intruder: Intruder, capsys: pytest.CaptureFixture[str]
) -> None:
    customers_register(store, 5)
    audit.sign_checkpoint(TODAY)
    intruder.swap(3, 8)
    code, said = verify(audit, capsys)
    assert code == 1
    assert "first bad notification id: 3" in said


def test_a_tree_rebuilt_over_an_edited_log_no_longer_matches_the_signed_root(
    store: Storefront, audit: Audit, intruder: Intruder, capsys: pytest.CaptureFixture[str]
) -> None:
    customers_register(store, 4)
    audit.sign_checkpoint(TODAY)
    intruder.change_one_byte(5, b"x", b"y")
    intruder.rewrite_tree()
    audit.tree.extend()
    code, said = verify(audit, capsys)
    assert code == 1
    assert "differs from the signed checkpoint" in said


def test_yesterdays_checkpoint_is_consistent_with_todays_and_a_rewritten_history_is_not(
    store: Storefront, audit: Audit, intruder: Intruder
) -> None:
    customers_register(store, 3)
    yesterday = audit.sign_checkpoint(TODAY - timedelta(days=1))
    customers_register(store, 4, first=3)
    today = audit.sign_checkpoint(TODAY)
    proof = audit.consistency(yesterday, today)
    key = audit.signer.verifier_key()
    old, new = open_checkpoint(proof["old_checkpoint"], key), open_checkpoint(proof["new_checkpoint"], key)
    path = [bytes.fromhex(h) for h in proof["consistency_path"]]
    assert (old.size, new.size) == (6, 14)
    assert verify_consistency(old.size, new.size, old.root, new.root, path)

    intruder.change_one_byte(2, b"x", b"y")
    intruder.rewrite_tree()
    customers_register(store, 1, first=7)
    rewritten = audit.sign_checkpoint(TODAY + timedelta(days=1))
    forged = audit.consistency(yesterday, rewritten)
    forged_path = [bytes.fromhex(h) for h in forged["consistency_path"]]
    assert not verify_consistency(6, rewritten.checkpoint.size, old.root, rewritten.checkpoint.root, forged_path)


def test_an_inclusion_proof_names_the_record_its_leaf_and_path(
    store: Storefront, audit: Audit, capsys: pytest.CaptureFixture[str]
) -> None:
    customers_register(store, 3)
    assert audit_cli.run(audit_cli.parse_args(["prove", "--notification-id", "4"]), audit) == 0
    import json

    proved = json.loads(capsys.readouterr().out)
    checkpoint = open_checkpoint(proved["checkpoint"], audit.signer.verifier_key())
    [event] = proved["events"]
    assert json.loads(event["record"])["notification_id"] == 4
    leaf = leaf_hash(event["record"].encode("ascii"))
    path = [bytes.fromhex(h) for h in event["inclusion_path"]]
    assert verify_inclusion(leaf, event["leaf_index"], checkpoint.size, path, checkpoint.root)


def test_finance_runs_the_audit_command_line_on_the_configured_log(settings: Settings, store: Storefront) -> None:
    customers_register(store, 2)
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "AUDIT_SIGNING_KEY")}
    env["APP_VAR_DIR"] = str(settings.var_dir)
    if settings.database_url:
        env["DATABASE_URL"] = settings.database_url

    def audit_command(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "eventlog.audit", *argv], cwd=ROOT, env=env, capture_output=True, text=True,
            timeout=120, check=False,
        )  # fmt: skip

    signed = audit_command("checkpoint")
    assert signed.returncode == 0, signed.stderr
    assert signed.stdout.startswith("unicornpro.local/storefront/log\n4\n")
    assert (settings.var_dir / "checkpoints" / "latest.txt").read_text() == signed.stdout
    verified = audit_command("verify")
    assert verified.returncode == 0, verified.stderr
    assert "OK: 4 events verified" in verified.stdout
    assert "verify: 100%" in verified.stderr  # the progress bar
