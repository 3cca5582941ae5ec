"""``python -m eventlog.audit``: verify the log, sign a checkpoint, prove events, export them.

A process entry point: it reads where the log is and the signing key from the settings (``config``), which
import-linter allows this module alone in ``events``.

    verify      recompute every leaf and the root; compare with the latest signed checkpoint (exit 1 naming
                the first bad notification id)
    checkpoint  append what the tree lacks, sign a checkpoint of it, keep it and write it to the checkpoint directory
    prove       an inclusion proof of an event (--notification-id) or of every event of a payment (--merchant-uid),
                or a consistency proof between two signed tree sizes (--consistency OLD NEW)
    export      chosen events to JSONL, CSV or Parquet, with a manifest naming the checkpoint they are leaves of
    key         print the verifier key finance keeps
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from tqdm import tqdm

from config.settings import Settings, load_settings
from eventlog.audit import Audit
from eventlog.audit.export import FORMATS, Selection, manifest, rows, write
from eventlog.audit.verification import verify_log
from eventlog.checkpoints import CheckpointError, SignedCheckpoint, load_signing_key, open_checkpoint_by_any


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command and its options."""
    parser = argparse.ArgumentParser(prog="python -m eventlog.audit", description="Finance's tools for the event log.")
    commands = parser.add_subparsers(dest="command", required=True)
    verify = commands.add_parser("verify", help="recompute every leaf and the root; compare with the signed checkpoint")
    verify.add_argument("--checkpoint", type=Path, help="a signed checkpoint file to trust (default: the latest kept)")
    verify.add_argument(
        "--key",
        help="the verifier key to trust (default: the configured signing key's and AUDIT_PREVIOUS_VERIFIER_KEYS)",
    )
    verify.add_argument("--quiet", action="store_true", help="no progress bar")
    commands.add_parser("checkpoint", help="sign a checkpoint of the whole log now")
    prove = commands.add_parser("prove", help="inclusion or consistency proofs, as JSON")
    target = prove.add_mutually_exclusive_group(required=True)
    target.add_argument("--notification-id", type=int)
    target.add_argument("--merchant-uid")
    target.add_argument("--consistency", nargs=2, type=int, metavar=("OLD_SIZE", "NEW_SIZE"))
    export = commands.add_parser("export", help="events to JSONL, CSV or Parquet with a manifest")
    export.add_argument("output", type=Path)
    export.add_argument("--format", choices=FORMATS, help="default: from the output's extension")
    export.add_argument("--since", type=_instant, help="ISO 8601 instant (inclusive)")
    export.add_argument("--until", type=_instant, help="ISO 8601 instant (exclusive)")
    export.add_argument("--topic", action="append", default=[], help="event type, e.g. payment.Refunded or payment.*")
    export.add_argument("--quiet", action="store_true", help="no progress bar")
    commands.add_parser("key", help="print the verifier key of the checkpoints")
    return parser.parse_args(argv)


def _instant(text: str) -> datetime:
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def open_audit(settings: Settings) -> Audit:
    """The audit tools over the log the settings describe."""
    key = load_signing_key(settings.audit_signing_key, settings.audit_key_file)
    return Audit.open(settings.event_store_env, key, settings.audit_log_origin, settings.checkpoint_dir)


def run(args: argparse.Namespace, audit: Audit, previous_keys: Sequence[str] = ()) -> int:
    """Carry out the command; 0 on success, 1 when verification fails or a proof cannot be given.

    ``previous_keys``: verifier keys of signing keys rotated out, which ``verify`` trusts besides the current one.
    """
    now = datetime.now(UTC)
    if args.command == "key":
        print(audit.signer.verifier_key())
        return 0
    if args.command == "checkpoint":
        print(audit.sign_checkpoint(now).note, end="")
        return 0
    if args.command == "verify":
        return _verify(args, audit, previous_keys)
    if args.command == "prove":
        return _prove(args, audit, now)
    return _export(args, audit, now)


def _verify(args: argparse.Namespace, audit: Audit, previous_keys: Sequence[str]) -> int:
    verifier_keys = [args.key] if args.key else [audit.signer.verifier_key(), *previous_keys]
    if args.checkpoint is not None:
        note = args.checkpoint.read_text(encoding="utf-8")
    else:
        latest = audit.checkpoints.latest()
        if latest is None:
            print("no checkpoint has been signed yet: run `python -m eventlog.audit checkpoint`", file=sys.stderr)
            return 1
        note = latest.note
    try:
        checkpoint = open_checkpoint_by_any(note, verifier_keys)
    except CheckpointError as refused:
        print(f"FAILED: {refused}", file=sys.stderr)
        return 1
    with tqdm(
        total=audit.log.max_notification_id(), unit="event", desc="verify", disable=args.quiet, file=sys.stderr
    ) as bar:
        verdict = verify_log(audit.tree, checkpoint, bar.update)
    if not verdict.ok:
        print(f"FAILED: {verdict.message}", file=sys.stderr)
        if verdict.bad_notification_id is not None:
            print(f"first bad notification id: {verdict.bad_notification_id}", file=sys.stderr)
        return 1
    print(f"OK: {verdict.message}; root {checkpoint.root.hex()} signed by {checkpoint.origin}")
    return 0


def _prove(args: argparse.Namespace, audit: Audit, now: datetime) -> int:
    if args.consistency is not None:
        old_size, new_size = args.consistency
        old, new = audit.checkpoints.at_size(old_size), audit.checkpoints.at_size(new_size)
        if old is None or new is None or old_size > new_size:
            print("both sizes must be of signed checkpoints, the older first", file=sys.stderr)
            return 1
        print(json.dumps(audit.consistency(old, new), indent=2))
        return 0
    checkpoint = audit.sign_checkpoint(now)
    ids = [args.notification_id] if args.notification_id is not None else audit.events_of_payment(args.merchant_uid)
    if not ids:
        print(f"no payment was ordered under {args.merchant_uid}", file=sys.stderr)
        return 1
    try:
        proofs = [audit.inclusion(notification_id, checkpoint) for notification_id in ids]
    except LookupError as missing:
        print(str(missing), file=sys.stderr)
        return 1
    print(json.dumps({"checkpoint": checkpoint.note, "events": proofs}, indent=2))
    return 0


def _export(args: argparse.Namespace, audit: Audit, now: datetime) -> int:
    fmt = args.format or args.output.suffix.lstrip(".")
    if fmt not in FORMATS:
        print(f"choose a format: {', '.join(FORMATS)}", file=sys.stderr)
        return 2
    checkpoint: SignedCheckpoint = audit.sign_checkpoint(now)
    selection = Selection(args.since, args.until, tuple(args.topic))
    args.output.parent.mkdir(parents=True, exist_ok=True)
    with tqdm(
        total=checkpoint.checkpoint.size, unit="event", desc="export", disable=args.quiet, file=sys.stderr
    ) as bar:
        count = write(args.output, fmt, rows(audit.log, audit.tree, checkpoint, selection, bar.update))
    described = manifest(args.output, fmt, count, selection, checkpoint, audit.signer.verifier_key(), now)
    manifest_path = args.output.with_name(args.output.name + ".manifest.json")
    manifest_path.write_text(json.dumps(described, indent=2) + "\n", encoding="utf-8")
    print(
        f"exported {count} events to {args.output} (manifest {manifest_path.name}, tree {checkpoint.checkpoint.size})"
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point."""
    args = parse_args(argv)
    settings = load_settings()
    audit = open_audit(settings)
    try:
        return run(args, audit, settings.previous_verifier_keys)
    finally:
        audit.close()


if __name__ == "__main__":
    sys.exit(main())
