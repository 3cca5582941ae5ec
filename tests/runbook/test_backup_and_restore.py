"""Runbook, "Backup and restore": a backup of the log, the views and the Merkle tables, restored into a fresh
store, verifies against the checkpoint finance kept; a restored copy someone edited does not."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from config.settings import Settings
from domain.store import Storefront
from tests.conftest import create_postgres_database, drop_postgres_database, make_settings
from tests.integration.audit.conftest import Intruder
from tests.integration.audit.test_transparency_log import customers_register
from tests.runbook.conftest import Operator, new_signing_key

pytestmark = pytest.mark.integration


@pytest.fixture
def fresh(settings: Settings, tmp_path: Path) -> Iterator[Settings]:
    """A second, empty store of the same kind: the machine the backup is restored onto."""
    if not settings.uses_postgres:
        yield make_settings(tmp_path / "restored")
        return
    url = create_postgres_database()
    try:
        yield make_settings(tmp_path / "restored", DATABASE_URL=url)
    finally:
        drop_postgres_database(url)


def test_a_backup_restored_into_a_fresh_database_verifies(
    settings: Settings, store: Storefront, fresh: Settings, tmp_path: Path
) -> None:
    key = {"AUDIT_SIGNING_KEY": new_signing_key()}
    site, restored = Operator(settings, key), Operator(fresh, key)
    customers_register(store, 5)
    site.run("projections", "rebuild")
    site.run("eventlog.audit", "checkpoint")
    finance_copy = tmp_path / "finance-checkpoint.txt"
    finance_copy.write_text((settings.checkpoint_dir / "latest.txt").read_text())
    status = site.run("projections", "status")

    site.run("operations.backup", "save", str(tmp_path / "backup"))
    restored.run("operations.backup", "restore", str(tmp_path / "backup"))

    said = restored.run("eventlog.audit", "verify", "--checkpoint", str(finance_copy), "--quiet")
    assert "OK: 10 events verified; the first 10 match the signed checkpoint" in said
    assert "OK: 10 events verified" in restored.run("eventlog.audit", "verify", "--quiet")
    assert restored.run("projections", "status") == status
    assert "log head: 10" in status and "accounts: 10" in status


def test_a_restored_copy_someone_edited_fails_verification(
    settings: Settings, store: Storefront, fresh: Settings, tmp_path: Path
) -> None:
    key = {"AUDIT_SIGNING_KEY": new_signing_key()}
    site, restored = Operator(settings, key), Operator(fresh, key)
    customers_register(store, 5)
    site.run("eventlog.audit", "checkpoint")
    finance_copy = tmp_path / "finance-checkpoint.txt"
    finance_copy.write_text((settings.checkpoint_dir / "latest.txt").read_text())
    site.run("operations.backup", "save", str(tmp_path / "backup"))
    restored.run("operations.backup", "restore", str(tmp_path / "backup"))

    Intruder(fresh, store.recorder.events_table_name).change_one_byte(
        7, b"x", b"y"
    )  # customer3@example.com becomes customer3@eyample.com

    said = restored.run("eventlog.audit", "verify", "--checkpoint", str(finance_copy), "--quiet", expect=1)
    assert "first bad notification id: 7" in said
