"""The desk's sign-on address, the chat member hash and their production settings."""

from __future__ import annotations

import hashlib
import hmac
from pathlib import Path
from urllib.parse import parse_qs, urlsplit
from uuid import UUID

import pytest
from pydantic import ValidationError

from integrations.chat import chat_member_hash
from integrations.zendesk import desk_return_to, desk_sign_on_url
from tests.conftest import make_settings

DESK = "https://help.unicornpro.test"
ACCOUNT = UUID("0b7f5d7e-4c55-4f2e-9d0e-5a1c2b3d4e5f")


def test_a_page_of_the_desk_is_kept_as_the_return_address() -> None:
    assert desk_return_to(DESK, f"{DESK}/hc/ja/articles/1?x=1#top") == f"{DESK}/hc/ja/articles/1?x=1#top"
    assert desk_return_to(DESK, "HTTPS://HELP.unicornpro.test/hc") == "HTTPS://HELP.unicornpro.test/hc"


@pytest.mark.parametrize(
    "foreign",
    [
        None,
        "",
        "https://evil.example/",
        "https://help.unicornpro.test.evil.example/",
        "https://help.unicornpro.test@evil.example/",
        "http://help.unicornpro.test/",
        "https://help.unicornpro.test:444/",
        "https://help.unicornpro.test:99999/",
        "//help.unicornpro.test/",
        "/hc/ko",
        "javascript:alert(1)",
    ],
)
def test_anything_else_returns_to_the_desks_home(foreign: str | None) -> None:
    assert desk_return_to(DESK, foreign) == f"{DESK}/"


def test_the_sign_on_address_carries_the_token_and_the_checked_return_address() -> None:
    address = urlsplit(desk_sign_on_url(f"{DESK}/", "a.b.c", "https://evil.example/"))
    assert (address.netloc, address.path) == ("help.unicornpro.test", "/access/jwt")
    assert parse_qs(address.query) == {"jwt": ["a.b.c"], "return_to": [f"{DESK}/"]}


def test_the_chat_member_hash_is_the_hex_hmac_sha256_of_the_account_id() -> None:
    expected = hmac.new(b"secret", b"0b7f5d7e-4c55-4f2e-9d0e-5a1c2b3d4e5f", hashlib.sha256).hexdigest()
    assert chat_member_hash("secret", ACCOUNT) == expected
    assert chat_member_hash("another", ACCOUNT) != expected


def test_production_needs_a_chat_member_secret_only_when_the_chat_is_on(tmp_path: Path) -> None:
    production = {
        "APP_ENV": "production",
        "AUTH_SECRET": "s" * 40,
        "ZENDESK_SECRET": "z" * 40,
        "LICENCE_SIGNING_SECRET": "l" * 40,
        "PORTONE_BASE_URL": "https://api.iamport.kr",
        "AUDIT_SIGNING_KEY": "a2V5LXNlZWQtb2YtdGhpcnR5LXR3by1ieXRlcy0wMDA=",
        "APP_BASE_URL": "https://shop.unicornpro.example",
        "COMPANY_NAME": "Unicorn Inc.",
        "COMPANY_REPRESENTATIVE": "Kim Uni",
        "COMPANY_ADDRESS": "123 Teheran-ro, Seoul",
        "COMPANY_BUSINESS_NUMBER": "123-45-67890",
        "COMPANY_MAIL_ORDER_NUMBER": "2026-Seoul-01234",
        "COMPANY_PHONE": "02-1234-5678",
        "COMPANY_EMAIL": "help@unicornpro.example",
        "COMPANY_HOSTING_PROVIDER": "Example Cloud Inc.",
        "JP_SELLER_NAME": "ユニコーン株式会社",
        "JP_SELLER_ADDRESS": "大韓民国ソウル特別市江南区テヘラン路123",
        "JP_SELLER_PHONE": "+82-2-1234-5678",
        "JP_SELLER_RESPONSIBLE": "キム・ユニ",
    }
    assert make_settings(tmp_path, **production).chat_script_url == ""
    for weak in ("", "short"):
        with pytest.raises(ValidationError, match="CHAT_MEMBER_SECRET"):
            make_settings(
                tmp_path, **production, CHAT_SCRIPT_URL="https://cdn.chat.example/plugin.js", CHAT_MEMBER_SECRET=weak
            )
    with pytest.raises(ValidationError, match="CHAT_MEMBER_SECRET"):
        make_settings(tmp_path, **production, CHAT_SCRIPT_URL="https://cdn.chat.example/plugin.js")
    on = make_settings(
        tmp_path, **production, CHAT_SCRIPT_URL="https://cdn.chat.example/plugin.js", CHAT_MEMBER_SECRET="c" * 40
    )
    assert on.chat_member_secret == "c" * 40
