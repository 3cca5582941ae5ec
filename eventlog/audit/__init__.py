"""Finance's view of the log: the transparency log, its signed checkpoints, proofs, verification and export.

``Audit`` wires the pieces over one log; ``python -m eventlog.audit`` is its command line.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any
from uuid import UUID

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from eventlog.application import EventLog
from eventlog.checkpoints import Checkpoint, CheckpointCopies, CheckpointStore, SignedCheckpoint, Signer
from eventlog.database import ViewDatabase, open_view_database
from eventlog.merkle import leaf_hash
from eventlog.transparency import TransparencyLog, canonical_record, read_log

SETUP_ATTEMPTS = 3


@dataclass(eq=False)
class Audit:
    """The transparency log of one event log, its checkpoints and the key that signs them."""

    log: EventLog
    db: ViewDatabase
    tree: TransparencyLog
    checkpoints: CheckpointStore
    signer: Signer
    _owns_log: bool = False

    @classmethod
    def open(
        cls,
        event_store_env: Mapping[str, str],
        signing_key: Ed25519PrivateKey,
        origin: str,
        checkpoint_dir: Path | None,
        log: EventLog | None = None,
        copies: CheckpointCopies | None = None,
    ) -> Audit:
        """Open the tree and checkpoints in the log's own database (creating their tables if missing)."""
        owns_log = log is None
        log_app = log if log is not None else EventLog(event_store_env)
        db = open_view_database(event_store_env)
        audit = cls(
            log=log_app,
            db=db,
            tree=TransparencyLog(log_app.recorder, db, log_app.name),
            checkpoints=CheckpointStore(db, checkpoint_dir, copies),
            signer=Signer(origin, signing_key),
            _owns_log=owns_log,
        )
        # Processes starting together on PostgreSQL can race on CREATE TABLE IF NOT EXISTS; the loser's
        # error is harmless, and by its next attempt the tables exist.
        for attempt in range(1, SETUP_ATTEMPTS + 1):
            try:
                audit.tree.setup()
                audit.checkpoints.setup()
                break
            except Exception:
                if attempt == SETUP_ATTEMPTS:
                    audit.close()
                    raise
                time.sleep(0.1 * attempt)
        return audit

    def close(self) -> None:
        """Release the database connections this audit opened."""
        self.db.close()
        if self._owns_log:
            self.log.close()

    def sign_checkpoint(self, now: datetime) -> SignedCheckpoint:
        """Append what the tree lacks, then sign and keep a checkpoint of the whole tree."""
        self.tree.extend()
        size, root = self.tree.root()
        checkpoint = Checkpoint(self.signer.name, size, root)
        return self.checkpoints.keep(checkpoint, self.signer.sign(checkpoint), now)

    def inclusion(self, notification_id: int, checkpoint: SignedCheckpoint) -> dict[str, Any]:
        """Everything needed to check that one event is in the signed tree: its record, leaf and audit path."""
        leaf = self.tree.leaf(notification_id)
        if leaf is None or leaf.index >= checkpoint.checkpoint.size:
            raise LookupError(f"event {notification_id} is not in the tree of {checkpoint.checkpoint.size}")
        (notification,) = self.log.recorder.select_notifications(start=notification_id, limit=1, stop=notification_id)
        record = canonical_record(
            notification.originator_id,
            notification.originator_version,
            notification.topic,
            notification.state,
            notification.id,
        )
        return {
            "notification_id": notification_id,
            "leaf_index": leaf.index,
            "record": record.decode("ascii"),
            "leaf_hash": leaf_hash(record).hex(),
            "tree_size": checkpoint.checkpoint.size,
            "root_hash": checkpoint.checkpoint.root.hex(),
            "inclusion_path": [h.hex() for h in self.tree.inclusion_proof(leaf.index, checkpoint.checkpoint.size)],
        }

    def latest_inclusion_of(self, originator_id: UUID) -> dict[str, Any] | None:
        """The newest signed checkpoint and the inclusion proof of the aggregate's latest event in it (None when
        nothing is signed yet or the aggregate has no event in the signed tree)."""
        latest = self.checkpoints.latest()
        return None if latest is None else self.inclusion_of_latest_event(originator_id, latest)

    def inclusion_of_latest_event(self, originator_id: UUID, latest: SignedCheckpoint) -> dict[str, Any] | None:
        """The inclusion proof, in ``latest``, of the aggregate's latest event in its tree (None when it has none)."""
        if latest.checkpoint.size == 0:
            return None
        last_leaf = next(self.tree.leaves(latest.checkpoint.size - 1), None)
        if last_leaf is None:
            return None
        notification_id = self.log.last_notification_of(originator_id, last_leaf.notification_id)
        if notification_id is None:
            return None
        return {**self.inclusion(notification_id, latest), "checkpoint": latest.note}

    def consistency(self, old: SignedCheckpoint, new: SignedCheckpoint) -> dict[str, Any]:
        """The proof that the older signed tree is a prefix of the newer one."""
        old_size, new_size = old.checkpoint.size, new.checkpoint.size
        return {
            "old_size": old_size,
            "old_root": old.checkpoint.root.hex(),
            "new_size": new_size,
            "new_root": new.checkpoint.root.hex(),
            "consistency_path": [h.hex() for h in self.tree.consistency_proof(old_size, new_size)],
            "old_checkpoint": old.note,
            "new_checkpoint": new.note,
        }

    def events_of_payment(self, merchant_uid: str) -> list[int]:
        """The notification ids of every event of the payment ordered under ``merchant_uid``, in log order."""
        payments: set[str] = set()
        found: list[int] = []
        for notification in read_log(self.log.recorder):
            originator = str(UUID(str(notification.originator_id)))
            if notification.topic == "payment.Ordered":
                state = json.loads(notification.state)
                if state.get("merchant_uid") == merchant_uid:
                    payments.add(originator)
            if originator in payments:
                found.append(notification.id)
        return found
