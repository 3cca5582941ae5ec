"""The product's name as mails and receipts write it, per language: the name the site shows in its header and
titles (web/src/i18n/shell/*.ts `brand`), so a customer reads one name everywhere (issue 29, finding 16: mails said
"AdBlock Unicorn" where the site said "Unicorn")."""

from __future__ import annotations

from events.values import Language

BRAND = {Language.KO: "유니콘", Language.EN: "Unicorn", Language.JA: "ユニコーン"}
