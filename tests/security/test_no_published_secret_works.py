"""Finding 3: secrets published in the source worked wherever APP_ENV was left unset.

As it ran: the development AUTH_SECRET default was in the source, and tokens and mailed links signed with it were
accepted: a forged ``sub`` read another account, a forged confirmation link confirmed an address the attacker did
not own, a reset link with a pushed-out expiry worked. Now there is no default: each var/ generates its own secrets
(readable by their owner only) and the once-published values are refused everywhere; production refuses to start
without real ones.
"""

from __future__ import annotations

import stat
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from uuid import UUID

import jwt
import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from api.app import create_app
from api.services import Services
from config.settings import PUBLISHED_SECRETS, Settings
from domain.accounts.tokens import CONFIRM_EMAIL, RESET_PASSWORD, sign_link
from tests.conftest import make_settings
from tests.fakes import ManualClock, PlainHasher
from tests.support import START, running_projector

pytestmark = pytest.mark.integration

V1 = "/web/unicornpro/v1"
PUBLISHED_AUTH_SECRET = "dev-only-auth-secret-change-me-0123456789abcdef"


@pytest.fixture
def site(settings: Settings) -> Iterator[tuple[TestClient, Services]]:
    services = Services.build(settings, clock=ManualClock(START), hasher=PlainHasher())
    with running_projector(settings), TestClient(create_app(services=services)) as client:
        yield client, services
    services.close()


def test_tokens_and_links_signed_with_the_once_published_secret_are_refused(
    site: tuple[TestClient, Services],
) -> None:
    client, services = site
    victim = client.post(f"{V1}/accounts", json={"email": "victim@example.com", "pw": "abcd1234", "language": "ko"})
    victim_id = UUID(victim.json()["userId"])
    now = services.clock.now()

    forged_access = jwt.encode(
        {"sub": str(victim_id), "scope": 1, "aud": "access", "iat": int(now.timestamp()), "exp": 2_000_000_000},
        PUBLISHED_AUTH_SECRET,
        algorithm="HS256",
    )
    assert client.get(f"{V1}/accounts", headers={"Authorization": f"Bearer {forged_access}"}).status_code == 401

    forged_confirm = sign_link(
        PUBLISHED_AUTH_SECRET, CONFIRM_EMAIL, victim_id, now, timedelta(days=1), email="victim@example.com"
    )
    opened = client.get(f"{V1}/accounts/confirm", params={"t": forged_confirm}, follow_redirects=False)
    assert "errorCode=-405" in opened.headers["location"]
    client.post(f"{V1}/accounts/password-change-email", json={"email": "victim@example.com"})
    forged_reset = sign_link(PUBLISHED_AUTH_SECRET, RESET_PASSWORD, victim_id, now, timedelta(days=365), rid="x")
    assert client.get(f"{V1}/accounts/password-change-check", params={"t": forged_reset}).json()["errorCode"] == -405

    # Nothing of the victim changed: the address is still unconfirmed and the password still theirs.
    login = client.post(f"{V1}/auth/login", json={"email": "victim@example.com", "pw": "abcd1234"})
    assert (login.status_code, login.json()["scope"]) == (200, 0)


def test_each_var_directory_generates_its_own_secrets_readable_by_their_owner_only(tmp_path: Path) -> None:
    first, second = make_settings(tmp_path / "one"), make_settings(tmp_path / "two")
    assert first.auth_secret != second.auth_secret
    assert len({first.auth_secret, first.zendesk_secret, first.chat_member_secret}) == 3
    assert make_settings(tmp_path / "one").auth_secret == first.auth_secret, "every process of one var/ agrees"
    for name in ("auth", "zendesk", "chat-member"):
        mode = stat.S_IMODE((tmp_path / "one" / "secrets" / f"{name}.key").stat().st_mode)
        assert mode == 0o600, name


@pytest.mark.parametrize("name", ["AUTH_SECRET", "ZENDESK_SECRET", "CHAT_MEMBER_SECRET"])
def test_a_once_published_secret_is_refused_in_every_environment(tmp_path: Path, name: str) -> None:
    for published in PUBLISHED_SECRETS:
        with pytest.raises(ValidationError, match=name):
            make_settings(tmp_path, **{name: published})


def test_production_refuses_to_start_without_real_secrets(tmp_path: Path) -> None:
    production = {
        "APP_ENV": "production",
        "PORTONE_BASE_URL": "https://api.iamport.kr",
        "AUDIT_SIGNING_KEY": "a2V5LXNlZWQtb2YtdGhpcnR5LXR3by1ieXRlcy0wMDA=",
    }
    with pytest.raises(ValidationError, match="AUTH_SECRET"):
        make_settings(tmp_path, **production, ZENDESK_SECRET="z" * 40)
    with pytest.raises(ValidationError, match="AUTH_SECRET"):
        make_settings(tmp_path, **production, AUTH_SECRET="short", ZENDESK_SECRET="z" * 40)
    with pytest.raises(ValidationError, match="ZENDESK_SECRET"):
        make_settings(tmp_path, **production, AUTH_SECRET="s" * 40)
    assert not (tmp_path / "secrets").exists(), "production never generates a secret of its own"
