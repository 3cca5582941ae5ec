"""The product's name as mails and receipts write it, per language."""

from __future__ import annotations

from events.values import Language

BRAND = {Language.KO: "애드블록 유니콘", Language.EN: "AdBlock Unicorn", Language.JA: "アドブロックユニコーン"}
