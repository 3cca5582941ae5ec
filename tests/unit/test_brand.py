"""One name for the product: the mails' brand is the one the site shows (issue 29, finding 16)."""

from __future__ import annotations

import re

from config.settings import PROJECT_ROOT, Settings
from domain.brand import BRAND
from events.values import Language

SHELL = PROJECT_ROOT / "web" / "src" / "i18n" / "shell"


def site_brand(language: Language) -> str:
    """The `brand` the storefront's header and titles use in ``language``."""
    text = (SHELL / f"{language.value}.ts").read_text(encoding="utf-8")
    found = re.search(r"^\s*brand: '([^']+)',", text, re.MULTILINE)
    assert found, f"no brand in {language.value}.ts"
    return found.group(1)


def test_mails_name_the_product_as_the_site_does_in_every_language():
    for language in Language:
        assert BRAND[language] == site_brand(language)


def test_the_default_sender_is_the_site_s_name():
    assert Settings.model_fields["mail_from"].default.startswith(f"{site_brand(Language.EN)} <")
