"""Finance's queue of tax-invoice requests (세금계산서), and its export for an e-tax-invoice service."""

from __future__ import annotations

import io
from datetime import datetime
from functools import singledispatchmethod
from typing import Any

from domain.business_time import BUSINESS_TIME
from eventlog import csv_files
from eventlog.database import ViewCursor, ViewDatabase
from events.papers import PapersOpened, TaxInvoiceRequested, TaxInvoiceWithdrawn
from projections.reports import utc_text
from projections.view import View


class TaxInvoicesView(View):
    """Every tax-invoice request, with the payment it is for and when it was withdrawn (refunded in full)."""

    name = "tax_invoices"
    version = 2  # 2: withdrawn requests (a full refund)
    tables = ("tax_invoices_view", "papers_merchants_view")

    def schema(self) -> list[str]:
        return [
            "CREATE TABLE IF NOT EXISTS papers_merchants_view (papers_id TEXT PRIMARY KEY, merchant_uid TEXT NOT NULL)",
            "CREATE TABLE IF NOT EXISTS tax_invoices_view ("
            "merchant_uid TEXT PRIMARY KEY, business_number TEXT NOT NULL, company_name TEXT NOT NULL, "
            "representative TEXT NOT NULL, address TEXT NOT NULL, email TEXT NOT NULL, amount BIGINT NOT NULL, "
            "currency TEXT NOT NULL, requested_at TEXT NOT NULL, withdrawn_at TEXT)",
            "CREATE INDEX IF NOT EXISTS tax_invoices_view_requested ON tax_invoices_view (requested_at)",
        ]

    @singledispatchmethod
    def apply(self, event: Any, cursor: ViewCursor) -> None:
        return None

    @apply.register
    def _opened(self, event: PapersOpened, cursor: ViewCursor) -> None:
        cursor.execute(
            "INSERT INTO papers_merchants_view (papers_id, merchant_uid) VALUES (%(id)s, %(merchant)s) "
            "ON CONFLICT (papers_id) DO NOTHING",
            {"id": str(event.originator_id), "merchant": event.merchant_uid},
        )

    @apply.register
    def _requested(self, event: TaxInvoiceRequested, cursor: ViewCursor) -> None:
        cursor.execute(
            "SELECT merchant_uid FROM papers_merchants_view WHERE papers_id = %(id)s", {"id": str(event.originator_id)}
        )
        row = cursor.fetchone()
        if row is None:
            return
        cursor.execute(
            "INSERT INTO tax_invoices_view (merchant_uid, business_number, company_name, representative, address, "
            "email, amount, currency, requested_at) VALUES (%(merchant)s, %(number)s, %(company)s, %(rep)s, "
            "%(address)s, %(email)s, %(amount)s, %(currency)s, %(at)s) ON CONFLICT (merchant_uid) DO NOTHING",
            {
                "merchant": row["merchant_uid"],
                "number": event.business_number,
                "company": event.company_name,
                "rep": event.representative,
                "address": event.address,
                "email": event.email,
                "amount": event.amount,
                "currency": event.currency,
                "at": utc_text(event.requested_at),
            },
        )

    @apply.register
    def _withdrawn(self, event: TaxInvoiceWithdrawn, cursor: ViewCursor) -> None:
        cursor.execute(
            "UPDATE tax_invoices_view SET withdrawn_at = %(at)s WHERE merchant_uid = "
            "(SELECT merchant_uid FROM papers_merchants_view WHERE papers_id = %(id)s)",
            {"id": str(event.originator_id), "at": utc_text(event.withdrawn_at)},
        )


def tax_invoice_requests(db: ViewDatabase) -> list[dict[str, Any]]:
    """Every tax-invoice request, oldest first."""
    with db.read() as cursor:
        cursor.execute("SELECT * FROM tax_invoices_view ORDER BY requested_at, merchant_uid")
        return cursor.fetchall()


# The columns of the export, in the order e-tax-invoice services' bulk upload forms ask for them: the buyer's
# registration number, company, representative, address and e-mail, the supply value, the VAT and the total, the
# date written (the request's, +09:00) and the item.
EXPORT_COLUMNS = (
    "작성일자",
    "공급받는자 등록번호",
    "공급받는자 상호",
    "공급받는자 성명",
    "공급받는자 사업장주소",
    "공급받는자 이메일",
    "공급가액",
    "세액",
    "합계금액",
    "품목",
    "주문번호",
)


def tax_invoice_csv(rows: list[dict[str, Any]]) -> str:
    """The requests as CSV (UTF-8 with a byte-order mark, so spreadsheet tools read the Korean): one row each, the
    amount split into supply value and VAT (one eleventh, half up, as the receipt shows it); a withdrawn request
    (refunded in full) is left out, as there is nothing to invoice."""
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv_files.writer(out, lineterminator="\r\n")
    writer.writerow(EXPORT_COLUMNS)
    for row in rows:
        if row.get("withdrawn_at"):
            continue
        amount = int(row["amount"])
        vat = (amount * 2 + 11) // 22  # round(amount / 11), halves up, in integers
        number = str(row["business_number"])
        writer.writerow(
            [
                _kst_date(str(row["requested_at"])),
                f"{number[:3]}-{number[3:5]}-{number[5:]}",
                row["company_name"],
                row["representative"],
                row["address"],
                row["email"],
                amount - vat,
                vat,
                amount,
                "소프트웨어 라이선스",
                row["merchant_uid"],
            ]
        )
    return out.getvalue()


def _kst_date(utc: str) -> str:
    return datetime.fromisoformat(utc).astimezone(BUSINESS_TIME).strftime("%Y%m%d")
