"""Receipts and refund notes laid out as PDF with fpdf2, the fonts embedded as subsets (Korean and Japanese).

Two makings of one document are the same bytes: the creation date is the moment the document speaks of (the
payment's or the refund's event), and nothing else in the file depends on when or where it was made."""

from __future__ import annotations

import logging
from functools import lru_cache
from pathlib import Path

from fpdf import FPDF

from domain.papers.receipts import PaperDocument
from events.values import Language

PRODUCER = "unicornpro-storefront receipts"
# fontTools says which hinting tables of a font it drops when subsetting (NanumGothic's TSI*): nothing to act on.
logging.getLogger("fontTools.subset").setLevel(logging.ERROR)


class MissingFontError(RuntimeError):
    """A receipt font is not installed (``make install`` installs Debian's; RECEIPT_FONT_* name others)."""


class ReceiptPdf:
    """Renders a ``PaperDocument`` as PDF bytes."""

    def __init__(self, korean_font: Path, japanese_font: Path) -> None:
        self._fonts = {"ko": Path(korean_font), "ja": Path(japanese_font)}

    def check(self) -> None:
        """Refuse early when a font is missing."""
        for name, path in self._fonts.items():
            if not path.is_file():
                raise MissingFontError(
                    f"the {name} receipt font {path} is missing: run `make install` (docs/papers.md)"
                )

    def __call__(self, document: PaperDocument) -> bytes:
        self.check()
        return _rendered(document, self._fonts["ko"], self._fonts["ja"])


@lru_cache(maxsize=128)
def _rendered(document: PaperDocument, korean_font: Path, japanese_font: Path) -> bytes:
    """The document's bytes (kept for the documents made last: a document is the same bytes every time, and laying one
    out reads both fonts, about half a second)."""
    fonts = {"ko": korean_font, "ja": japanese_font}
    pdf = FPDF(format="A4")
    pdf.set_creation_date(document.issued_at)
    pdf.set_producer(PRODUCER)
    pdf.set_creator(PRODUCER)
    pdf.set_title(f"{document.title} {document.merchant_uid}")
    pdf.set_lang(document.language.value)
    for name, path in fonts.items():
        pdf.add_font(name, fname=str(path))
    primary = "ja" if document.language is Language.JA else "ko"
    pdf.set_fallback_fonts(["ko" if primary == "ja" else "ja"])
    pdf.set_auto_page_break(auto=True, margin=15)
    pdf.add_page()

    pdf.set_font(primary, size=20)
    pdf.cell(0, 12, document.title, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(primary, size=9)
    pdf.cell(0, 6, document.merchant_uid, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    for section in document.sections:
        pdf.set_font(primary, size=12)
        pdf.set_fill_color(235, 235, 240)
        pdf.cell(0, 8, section.heading, fill=True, new_x="LMARGIN", new_y="NEXT")
        pdf.set_font(primary, size=10)
        for label, value in section.rows:
            pdf.cell(60, 7, label)
            pdf.multi_cell(0, 7, value, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(3)
    pdf.ln(4)
    pdf.set_font(primary, size=8)
    pdf.multi_cell(0, 5, document.note, new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())
