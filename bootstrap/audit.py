"""The transparency log's tools over a process's log, with the signing key and places the settings name."""

from __future__ import annotations

from config.settings import Settings
from events.application import EventLog
from events.audit import Audit
from events.checkpoints import load_signing_key


def open_audit(settings: Settings, log: EventLog | None = None) -> Audit:
    """The tree, checkpoints and signer of the log the settings describe (the process's own log when given)."""
    key = load_signing_key(settings.audit_signing_key, settings.audit_key_file)
    return Audit.open(settings.event_store_env, key, settings.audit_log_origin, settings.checkpoint_dir, log=log)
