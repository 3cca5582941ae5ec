"""The transparency log's tools over a process's log, with the signing key and places the settings name."""

from __future__ import annotations

from bootstrap.services import object_store
from config.settings import Settings
from domain.ports import ObjectStore, StoredObject
from eventlog.application import EventLog
from eventlog.audit import Audit
from eventlog.checkpoints import load_signing_key


class BucketCopies:
    """Copies of signed checkpoints in the object store's bucket, under ``checkpoints/`` (a deployment with an S3
    bucket has no disk that every worker shares, and finance can take them from the bucket)."""

    def __init__(self, objects: ObjectStore) -> None:
        self.objects = objects

    def write(self, name: str, note: str) -> None:
        self.objects.put(f"checkpoints/{name}", StoredObject(note.encode("utf-8"), "text/plain; charset=utf-8"))


def open_audit(settings: Settings, log: EventLog | None = None) -> Audit:
    """The tree, checkpoints and signer of the log the settings describe (the process's own log when given);
    checkpoint copies go to AUDIT_CHECKPOINT_DIR, or to the bucket when S3_BUCKET is set."""
    key = load_signing_key(settings.audit_signing_key, settings.audit_key_file)
    copies = BucketCopies(object_store(settings)) if settings.s3_bucket else None
    return Audit.open(
        settings.event_store_env, key, settings.audit_log_origin, settings.checkpoint_dir, log=log, copies=copies
    )
