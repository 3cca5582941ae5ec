"""The catalogue: every licence valid, fallbacks for country and language."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from domain.catalogue.licences import CATALOGUE_FILE, LIFETIME_DAYS, load_catalogue
from domain.catalogue.products import PRODUCTS, Edition
from events.values import Currency, Language


def test_every_pro_product_sells_monthly_annually_and_for_life_in_three_currencies() -> None:
    catalogue = load_catalogue()
    for code in ("uncpa", "uncpw", "uncpi", "uncpm"):
        lives = {licence.life for licence in catalogue.licences if licence.product_code == code}
        assert lives == {30, 365, LIFETIME_DAYS}
    for licence in catalogue.licences:
        assert {price.currency for price in licence.prices} == {Currency.KRW, Currency.USD, Currency.JPY}
        assert {item.lang_code for item in licence.localizations} == set(Language)


def test_the_family_has_seven_products_with_pro_variants() -> None:
    assert set(PRODUCTS) == {"uncea", "uncei", "uncem", "uncpa", "uncpw", "uncpi", "uncpm"}
    assert [code for code, product in PRODUCTS.items() if Edition.PRO in product.editions] == [
        "uncpa", "uncpw", "uncpi", "uncpm",
    ]  # fmt: skip


def test_an_unlisted_country_falls_back_to_us_then_korea() -> None:
    licence = load_catalogue().get(121)
    assert licence is not None
    assert licence.price_for("jp").currency is Currency.JPY
    assert licence.price_for("DE").country_code == "US"


def test_a_missing_language_falls_back_to_english_then_korean(tmp_path: Path) -> None:
    document = json.loads(CATALOGUE_FILE.read_text())
    first = document["licences"][0]
    first["localizations"] = [item for item in first["localizations"] if item["langCode"] != "ja"]
    edited = tmp_path / "licences.json"
    edited.write_text(json.dumps(document))
    licence = load_catalogue(edited).licences[0]
    assert licence.localization_for(Language.JA).lang_code is Language.EN
    first["localizations"] = [item for item in first["localizations"] if item["langCode"] == "ko"]
    edited.write_text(json.dumps(document))
    assert load_catalogue(edited).licences[0].localization_for(Language.JA).lang_code is Language.KO


def test_an_operator_error_in_the_file_is_caught_when_loading(tmp_path: Path) -> None:
    document = json.loads(CATALOGUE_FILE.read_text())
    document["licences"][1]["id"] = document["licences"][0]["id"]
    broken = tmp_path / "licences.json"
    broken.write_text(json.dumps(document))
    with pytest.raises(ValidationError, match="unique"):
        load_catalogue(broken)
    document["licences"][1]["id"] = 999
    document["licences"][1]["prices"][0]["price"] = 12.5
    broken.write_text(json.dumps(document))
    with pytest.raises(ValidationError):
        load_catalogue(broken)
