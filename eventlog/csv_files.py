"""Every CSV file we write goes through here: the standard library's writers with each text cell that a spreadsheet
would run as a formula neutralised (OWASP's CSV injection rule, in this one place).

A text cell that starts with ``=``, ``+``, ``-``, ``@``, a TAB or a carriage return gets a leading ``'``, so Excel,
LibreOffice and Google Sheets show it as text instead of evaluating it (``=HYPERLINK(...)`` in a company name, a
coupon group called ``@SUM(...)``). Numbers stay numbers: an amount of -3000 is written as it is. (``defusedcsv``
does the same for ``= + - @`` but not for TAB or CR, and rewrites ``|`` in such cells, so the rule is kept here.)
``tests/unit/test_csv_files.py`` holds every module that writes CSV to these writers.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Mapping
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralise(value: Any) -> Any:
    """The cell as a spreadsheet should see it: text starting like a formula, quoted with ``'``; anything else as
    it is."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return f"'{value}"
    return value


class Writer:
    """``csv.writer`` whose rows are neutralised cell by cell."""

    def __init__(self, out: Any, **options: Any) -> None:
        self._writer = csv.writer(out, **options)

    def writerow(self, row: Iterable[Any]) -> Any:
        """Write one row."""
        return self._writer.writerow([neutralise(cell) for cell in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        """Write every row."""
        for row in rows:
            self.writerow(row)


class DictWriter(csv.DictWriter):  # type: ignore[type-arg]  # generic only to type checkers
    """``csv.DictWriter`` whose rows are neutralised cell by cell (the header is ours)."""

    def writerow(self, rowdict: Mapping[str, Any]) -> Any:
        """Write one row."""
        return super().writerow({key: neutralise(value) for key, value in rowdict.items()})

    def writerows(self, rowdicts: Iterable[Mapping[str, Any]]) -> None:
        """Write every row."""
        for row in rowdicts:
            self.writerow(row)


def writer(out: Any, **options: Any) -> Writer:
    """A neutralising ``csv.writer`` over ``out``."""
    return Writer(out, **options)
