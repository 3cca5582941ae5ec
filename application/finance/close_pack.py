"""The month-end close pack as a finance job: the month's ledger, payments and refunds as CSV, the checkpoint signed
now, and a manifest with each file's SHA-256, in one zip (the manifest also kept beside it)."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections.abc import Callable, Iterable
from datetime import date
from typing import Any

from application.finance.exports import JOB_FILES
from application.finance.progress import Progress
from application.finance.services import FinanceServices
from domain.business_time import business_midnight
from domain.errors import DomainError, ErrorCode
from domain.finance.jobs import Result
from eventlog import csv_files
from events.values import Language
from projections.finance_ledger import ledger_rows
from projections.payments import payments_ordered_between

LEDGER_COLUMNS = (
    "day",
    "currency",
    "product_code",
    "plan",
    "plan_name",
    "pay_method",
    "kind",
    "merchant_uid",
    "at",
    "amount",
)
PAYMENT_COLUMNS = (
    "merchant_uid",
    "ordered_at",
    "paid_at",
    "state",
    "name",
    "amount",
    "original_amount",
    "cancel_amount",
    "currency",
    "pay_method",
    "coupon_code",
)
REFUND_COLUMNS = tuple(column for column in LEDGER_COLUMNS if column != "kind")


def month_window(month: str) -> tuple[date, date]:
    """``yyyy-mm`` as its first day and the first day of the next month (Korean calendar)."""
    try:
        first = date.fromisoformat(f"{month}-01")
    except ValueError:
        raise DomainError(ErrorCode.INVALID_VALUE, "a month is yyyy-mm") from None
    following = date(first.year + (first.month == 12), first.month % 12 + 1, 1)
    return first, following


def work(services: FinanceServices, month: str) -> Callable[[Progress], Result]:
    """The close pack's work (a DomainError for a month that is not yyyy-mm)."""
    first, following = month_window(month)

    def pack(progress: Progress) -> Result:
        since, until = business_midnight(first), business_midnight(following)
        versions = services.catalogues.versions()
        # Plans by their catalogue id, each with its name in Korean, the business's own language.
        ledger = JOB_FILES.rows(
            [
                {**row, "plan_name": versions.plan_name(int(row["plan"]), Language.KO) if row["plan"].isdigit() else ""}
                for row in ledger_rows(services.views, first, following)
            ]
        )
        progress.set_total(len(ledger) + 3)
        files: dict[str, bytes] = {"ledger.csv": _csv(LEDGER_COLUMNS, ledger)}
        progress.advance(len(ledger))
        files["payments.csv"] = _csv(
            PAYMENT_COLUMNS, JOB_FILES.rows(payments_ordered_between(services.views, since, until))
        )
        progress.advance()
        files["refunds.csv"] = _csv(REFUND_COLUMNS, (row for row in ledger if row["kind"] == "refund"))
        progress.advance()
        audit = services.open_audit()
        try:
            signed = audit.sign_checkpoint(services.clock.now())
            key = audit.signer.verifier_key()
        finally:
            audit.close()
        files["checkpoint.txt"] = signed.note.encode("utf-8")
        described = {
            "month": month,
            "since": since.isoformat(),
            "until": until.isoformat(),
            "created_at": services.clock.now().isoformat(),
            "tree_size": signed.checkpoint.size,
            "verifier_key": key,
            "files": {
                name: {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)} for name, data in files.items()
            },
        }
        manifest_bytes = (json.dumps(described, indent=2) + "\n").encode("utf-8")
        packed = io.BytesIO()
        with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, data in files.items():
                archive.writestr(name, data)
            archive.writestr("manifest.json", manifest_bytes)
        name = f"close-{month}.zip"
        progress.keep(name, packed.getvalue(), "application/zip")
        progress.keep("manifest.json", manifest_bytes, "application/json")
        progress.advance()
        return {
            "file": name,
            "treeSize": signed.checkpoint.size,
            "sha256": hashlib.sha256(packed.getvalue()).hexdigest(),
        }

    return pack


def _csv(columns: tuple[str, ...], rows: Iterable[dict[str, Any]]) -> bytes:
    out = io.StringIO()
    writer = csv_files.DictWriter(out, fieldnames=columns, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow(row)
    return out.getvalue().encode("utf-8")
