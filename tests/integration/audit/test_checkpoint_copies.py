"""Copies of signed checkpoints go where finance can take them: a directory, or the deployment's bucket."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from config.settings import Settings
from domain.store import Storefront
from eventlog.audit import Audit
from integrations.checkpoint_copies import BucketCopies
from integrations.object_store import FileObjectStore
from tests.support import register

pytestmark = pytest.mark.integration
NOW = datetime(2026, 11, 26, 9, 0, tzinfo=UTC)


def test_with_a_bucket_the_copies_go_to_it_and_not_to_a_disk(settings: Settings, store: Storefront) -> None:
    register(store, "first@example.com")
    bucket = FileObjectStore(settings.var_dir / "bucket")  # stands in for S3: the same port
    audit = Audit.open(
        settings.event_store_env,
        Ed25519PrivateKey.generate(),
        "books.example/storefront/log",
        settings.checkpoint_dir,
        log=store,
        copies=BucketCopies(bucket),
    )
    try:
        signed = audit.sign_checkpoint(NOW)
    finally:
        audit.close()

    latest = bucket.get("checkpoints/latest.txt")
    assert latest is not None and latest.data.decode() == signed.note
    assert latest.content_type.startswith("text/plain")
    numbered = bucket.get(f"checkpoints/checkpoint-{signed.checkpoint.size:012d}.txt")
    assert numbered is not None and numbered.data == latest.data
    assert not settings.checkpoint_dir.exists(), "no copy on the machine's disk"
