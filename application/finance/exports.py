"""An export of the log's events as a finance job: the chosen events of a checkpoint signed now, in one of
eventlog/audit/export.py's formats, with a manifest (count, SHA-256, checkpoint, verifier key). A member sees
each row as they may (domain/staff/disclosure.py): an event with a withheld field keeps only its leaf hash."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from application.finance.progress import Progress
from application.finance.services import FinanceServices
from domain.errors import DomainError, ErrorCode
from domain.finance.jobs import Params, Result
from domain.staff.disclosure import Disclosure
from domain.staff.permissions import Permission
from eventlog.audit.export import CONTENT_TYPES, FORMATS, ExportFormat, Selection, manifest, rows, write

# A job's files are for anyone who may read the ledger (finance, owners), whoever asked for them.
JOB_FILES = Disclosure.to_everyone_who_may(Permission.READ_LEDGER)


def params(fmt: str, since: datetime | None, until: datetime | None, topics: list[str]) -> Params:
    """An export's request as its job records it."""
    return {
        "format": fmt,
        "since": since.isoformat() if since else None,
        "until": until.isoformat() if until else None,
        "topics": topics,
    }


def work(services: FinanceServices, requested: Params) -> Callable[[Progress], Result]:
    """The export's work (a DomainError for a format we do not write)."""
    fmt = str(requested.get("format"))
    if fmt not in FORMATS:
        raise DomainError(ErrorCode.INVALID_VALUE, f"choose a format: {', '.join(FORMATS)}")
    since, until = (_moment(requested.get(key)) for key in ("since", "until"))
    topics = requested.get("topics") or []
    selection = Selection(since, until, tuple(topics if isinstance(topics, list) else [topics]))

    def export(progress: Progress) -> Result:
        audit = services.open_audit()
        try:
            now = services.clock.now()
            signed = audit.sign_checkpoint(now)
            progress.set_total(signed.checkpoint.size)
            with tempfile.TemporaryDirectory() as scratch:
                path = Path(scratch) / f"events.{fmt}"
                selected = rows(audit.log, audit.tree, signed, selection, progress.advance)
                count = write(path, fmt, (_disclosed(row, JOB_FILES) for row in selected))
                described = manifest(path, fmt, count, selection, signed, audit.signer.verifier_key(), now)
                progress.keep(path.name, path.read_bytes(), CONTENT_TYPES[ExportFormat(fmt)])
        finally:
            audit.close()
        text = json.dumps(described, indent=2) + "\n"
        progress.keep(f"{path.name}.manifest.json", text.encode("utf-8"), "application/json")
        return {"rows": count, "treeSize": signed.checkpoint.size, "sha256": described.get("sha256")}

    return export


def _moment(value: str | list[str] | None) -> datetime | None:
    return datetime.fromisoformat(value) if isinstance(value, str) and value else None


def _disclosed(row: dict[str, Any], disclosure: Disclosure) -> dict[str, Any]:
    """An export row as the member may see it: a state with withheld fields loses its record (the leaf hash stays)."""
    state, withheld = disclosure.stored_state(row["state"])
    if not withheld:
        return row
    return {**row, "state": state, "record": "", "withheld": ",".join(withheld)}
