"""Verifying the log: recompute every leaf and the root from the stored events, and compare with what was signed.

Each stored event's leaf is recomputed from its record and compared, in order, with the leaf the tree
recorded for it when it was appended; the root recomputed from those leaves must equal the signed
checkpoint's. An event changed, deleted, inserted or moved since it became a leaf is named by its
notification id. Should the tree's own tables have been rewritten to match, the recomputed root still
differs from the signed one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from eventlog.checkpoints import Checkpoint
from eventlog.merkle import MemoryTree
from eventlog.transparency import TransparencyLog, leaf_of, read_log


@dataclass(frozen=True)
class Verdict:
    """The outcome of a verification: ``bad_notification_id`` names the first event that fails, when one does."""

    ok: bool
    checked: int
    message: str
    bad_notification_id: int | None = None


def verify_log(
    tree: TransparencyLog, checkpoint: Checkpoint, advance: Callable[[int], object] = lambda _: None
) -> Verdict:
    """Check every stored event against the tree and the tree against ``checkpoint`` (already signature-checked).

    ``advance`` is called with the number of events read since its last call (a progress bar's ``update``).
    """
    recomputed = MemoryTree()
    stored = tree.leaves()
    pending = 0
    for notification in read_log(tree.recorder):
        advance(1)
        leaf = next(stored, None)
        if leaf is None:
            pending += 1  # recorded after the tree's last append: no leaf (and no signature) yet
            continue
        if leaf.notification_id < notification.id:
            return _bad(recomputed, leaf.notification_id, "is missing from the log (deleted, or moved later)")
        if leaf.notification_id > notification.id:
            return _bad(recomputed, notification.id, "was never appended to the tree (inserted, or moved earlier)")
        if leaf_of(notification) != leaf.hash:
            return _bad(recomputed, notification.id, "differs from the record the tree holds (changed or moved)")
        recomputed.append(leaf.hash)
    leftover = next(stored, None)
    if leftover is not None:
        return _bad(recomputed, leftover.notification_id, "is missing from the log (deleted)")
    if recomputed.size < checkpoint.size:
        return Verdict(
            False,
            recomputed.size,
            f"the log holds {recomputed.size} events but the checkpoint signed {checkpoint.size}",
        )
    if recomputed.root(checkpoint.size) != checkpoint.root:
        return Verdict(
            False,
            recomputed.size,
            f"the root of the first {checkpoint.size} events differs from the signed checkpoint's "
            "(the tree's own tables were rewritten too)",
        )
    tree_size, stored_root = tree.root()
    if tree_size != recomputed.size or stored_root != recomputed.root():
        return Verdict(False, recomputed.size, "the tree's stored nodes differ from the recomputed ones")
    note = f" ({pending} newer events not yet in the tree)" if pending else ""
    return Verdict(
        True,
        recomputed.size,
        f"{recomputed.size} events verified; the first {checkpoint.size} match the signed checkpoint{note}",
    )


def _bad(recomputed: MemoryTree, notification_id: int, what: str) -> Verdict:
    return Verdict(False, recomputed.size, f"event {notification_id} {what}", notification_id)
