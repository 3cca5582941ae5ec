"""Reports: the filter catalogues they name, what a report must hold, and the signed links to its images."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from pydantic import ValidationError

from domain.errors import DomainError, ErrorCode
from domain.links import SiteLinks
from domain.reports.filters import load_filter_catalogues
from domain.reports.links import check_image_link, image_link
from domain.reports.report import ReportForm
from integrations.object_store import FileObjectStore
from tests.support import START

MAIN = ["Korean filter", "English filter", "Japanese filter", "Base filter", "Annoyances filter"]
SOCIAL = ["Korean social button filter", "Korean social reply filter"]
DESKTOP_EXTRAS = ["Privacy filter", "Cryptocurrency miner blocking filter"]


@pytest.mark.parametrize(
    ("product", "second_group"),
    [
        ("uncea", SOCIAL),
        ("uncei", SOCIAL),
        ("uncem", SOCIAL + DESKTOP_EXTRAS),
        ("uncpa", SOCIAL),
        ("uncpi", SOCIAL),
        ("uncpm", SOCIAL + DESKTOP_EXTRAS),
        ("uncpw", SOCIAL + DESKTOP_EXTRAS),
    ],
)
def test_each_product_is_served_its_platforms_catalogue(product: str, second_group: list[str]) -> None:
    groups = load_filter_catalogues().for_product(product).groups
    assert [[item.name for item in group.filters] for group in groups] == [MAIN, second_group]
    names = {item.language_code: item.name for item in groups[0].localizations}
    assert names == {"ko": "기본 필터", "en": "Main filters", "ja": "基本フィルター"}
    korean = groups[0].filters[0]
    assert {item.language_code for item in korean.localizations} == {"ko", "en", "ja"}
    assert all(item.description for item in korean.localizations)


def test_the_three_catalogues_have_filter_ids_of_their_own_and_pro_apps_share_their_platforms() -> None:
    catalogues = load_filter_catalogues()
    android, ios, mac = (catalogues.for_product(code).filter_ids for code in ("uncea", "uncei", "uncem"))
    assert not (android & ios or android & mac or ios & mac)
    assert catalogues.for_product("uncpa").filter_ids == android
    with pytest.raises(DomainError) as unknown:
        catalogues.for_product("unicorn")
    assert unknown.value.code is ErrorCode.INVALID_VALUE
    catalogues.check_filters("uncpa", tuple(sorted(android)[:2]))
    with pytest.raises(DomainError) as foreign:
        catalogues.check_filters("uncpa", (min(mac),))
    assert foreign.value.code is ErrorCode.INVALID_VALUE


def form(**fields: Any) -> ReportForm:
    return ReportForm.model_validate({"product": "uncpa", "problem": "ad", "url": "https://news.example/a", **fields})


def test_a_report_reads_its_fields_as_the_web_and_the_apps_send_them() -> None:
    report = form(filters="101, 104", customFilters="example.com##.ad\n\n  ||ads.example^ ", adult="true", checked="1")
    assert (report.filters, report.custom_filters) == ((101, 104), ("example.com##.ad", "||ads.example^"))
    assert report.adult and report.checked
    assert form(email="", comment="   ").email is None, "empty fields are as good as left out"


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"checked": "false"}, ErrorCode.EMPTY_PARAMETER),
        ({"checked": "true", "url": ""}, ErrorCode.EMPTY_PARAMETER),
        ({"checked": "true", "problem": "bug", "url": ""}, None),
    ],
    ids=["no agreement", "an ad without its page", "a bug needs no page"],
)
def test_a_report_needs_the_agreement_and_an_ad_or_misblock_its_page(
    fields: dict[str, str], code: ErrorCode | None
) -> None:
    report = form(**fields)
    if code is None:
        report.check_complete()
        return
    with pytest.raises(DomainError) as refused:
        report.check_complete()
    assert refused.value.code is code


@pytest.mark.parametrize(
    "fields",
    [
        {"product": "unicorn"},
        {"problem": "praise"},
        {"url": "javascript:alert(1)"},
        {"email": "not-an-address"},
        {"filters": "101,ads"},
        {"comment": "nul\x00inside"},
        {"comment": "x" * 5001},
        {"customFilters": "y" * 1001},
        {"nickname": "extra"},
    ],
)
def test_invalid_fields_are_refused(fields: dict[str, str]) -> None:
    with pytest.raises(ValidationError):
        form(**fields)


def test_an_image_link_of_the_file_store_is_signed_and_expires(tmp_path: Any) -> None:
    store, key, secret = FileObjectStore(tmp_path), "reports/abc/1.png", "s" * 40
    week = timedelta(days=7)
    link = image_link(store, key, links=SiteLinks("https://shop.example/"), secret=secret, now=START, lifetime=week)
    assert link.startswith("https://shop.example/web/unicornpro/v1/reports/images/reports/abc/1.png?expires=")
    query = dict(part.split("=") for part in link.split("?")[1].split("&"))
    expires, signature = int(query["expires"]), query["signature"]
    assert expires == int((START + timedelta(days=7)).timestamp())
    check_image_link(secret, key, expires, signature, START + timedelta(days=6))
    for moment, other_key, other_signature in (
        (START + timedelta(days=7), key, signature),
        (START, "reports/abc/2.png", signature),
        (START, key, "0" * 64),
        (START, "banners/x.png", signature),
    ):
        with pytest.raises(DomainError) as refused:
            check_image_link(secret, other_key, expires, other_signature, moment)
        assert refused.value.code is ErrorCode.FORBIDDEN
