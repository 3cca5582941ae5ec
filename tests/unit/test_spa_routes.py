"""Issue 29, finding 15: the SPA fallback answers 404 where the web app has no page (dist/routes.json)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from api.spa import RouteTable

TABLE = RouteTable(
    ["ko", "en", "ja"], ["", "purchase", "login", "license/:userLicenseId", "license/:userLicenseId/upgrade"]
)


@pytest.mark.parametrize(
    "path",
    [
        "",
        "ko",
        "en/",
        "ja/purchase",
        "ko/license/42",
        "ko/license/42/upgrade",
        "purchase",
        "EN/purchase",
        "xx/purchase",
    ],
)
def test_the_app_s_pages_and_the_addresses_it_redirects_to_them_are_pages(path: str) -> None:
    assert TABLE.has_page(path)


@pytest.mark.parametrize("path", ["ko/nowhere", "en/purchase/extra", "ko/license", "nowhere", "ko/license/1/2/3"])
def test_other_addresses_are_not(path: str) -> None:
    assert not TABLE.has_page(path)


def test_the_table_is_the_build_s_or_none(tmp_path: Path) -> None:
    assert RouteTable.read(tmp_path) is None, "no manifest: every address is a page, as before"
    (tmp_path / "routes.json").write_text(json.dumps({"languages": ["ko"], "patterns": ["", "login"]}))
    table = RouteTable.read(tmp_path)
    assert table is not None and table.has_page("ko/login") and not table.has_page("ko/logout")
