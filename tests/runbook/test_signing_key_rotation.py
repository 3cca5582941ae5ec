"""Runbook, "Rotating AUDIT_SIGNING_KEY": checkpoints signed before the rotation still verify once the old key's
verifier key is listed in AUDIT_PREVIOUS_VERIFIER_KEYS, and new ones are signed with the new key."""

from __future__ import annotations

from pathlib import Path

import pytest

from config.settings import Settings
from domain.store import Storefront
from tests.integration.audit.test_transparency_log import customers_register
from tests.runbook.conftest import Operator, new_signing_key

pytestmark = pytest.mark.integration


def test_after_rotating_the_signing_key_old_checkpoints_still_verify(
    settings: Settings, store: Storefront, tmp_path: Path
) -> None:
    before = Operator(settings, {"AUDIT_SIGNING_KEY": new_signing_key()})
    customers_register(store, 3)
    old_verifier_key = before.run("eventlog.audit", "key").strip()
    before.run("eventlog.audit", "checkpoint")
    old_checkpoint = tmp_path / "checkpoint-6.txt"
    old_checkpoint.write_text((settings.checkpoint_dir / "latest.txt").read_text())

    # The rotation: a new key, and the old one's verifier key kept as a previous one.
    new_key = new_signing_key()
    after = Operator(settings, {"AUDIT_SIGNING_KEY": new_key, "AUDIT_PREVIOUS_VERIFIER_KEYS": old_verifier_key})
    assert after.run("eventlog.audit", "key").strip() != old_verifier_key
    customers_register(store, 2, first=3)
    after.run("eventlog.audit", "checkpoint")

    assert "the first 6 match" in after.run("eventlog.audit", "verify", "--checkpoint", str(old_checkpoint), "--quiet")
    assert "the first 10 match" in after.run("eventlog.audit", "verify", "--quiet")

    forgot = Operator(settings, {"AUDIT_SIGNING_KEY": new_key})
    said = forgot.run("eventlog.audit", "verify", "--checkpoint", str(old_checkpoint), "--quiet", expect=1)
    assert "carries no signature" in said
