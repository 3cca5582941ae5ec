"""Every CSV we write neutralises cells a spreadsheet would run as formulas, in one place (eventlog/csv_files.py)."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from eventlog import csv_files

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("events", "eventlog", "domain", "projections", "api", "workers", "integrations", "bootstrap", "config")


def test_a_cell_that_starts_like_a_formula_is_written_as_text() -> None:
    out = io.StringIO()
    writer = csv_files.writer(out)
    writer.writerow(['=HYPERLINK("http://evil")', "+1", "-2+3", "@SUM(A1)", "\tx", "\rx", "Acme", -3000, "a=b"])
    [row] = list(csv.reader(io.StringIO(out.getvalue(), newline="")))
    assert row == ['\'=HYPERLINK("http://evil")', "'+1", "'-2+3", "'@SUM(A1)", "'\tx", "'\rx", "Acme", "-3000", "a=b"]


def test_the_dict_writer_neutralises_its_rows_too() -> None:
    out = io.StringIO()
    writer = csv_files.DictWriter(out, fieldnames=["name", "amount"], lineterminator="\n")
    writer.writeheader()
    writer.writerows([{"name": "=1+1", "amount": -5}, {"name": "plain", "amount": 7}])
    assert out.getvalue() == "name,amount\n'=1+1,-5\nplain,7\n"


def test_no_module_writes_csv_without_it() -> None:
    writing = re.compile(r"\bcsv\.(writer|DictWriter)\(|^import csv$|^from csv import", re.MULTILINE)
    offenders = [
        str(path.relative_to(ROOT))
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if path.name != "csv_files.py" and writing.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == [], "write CSV through eventlog.csv_files"
