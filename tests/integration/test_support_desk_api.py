"""Support desk sign-on, the chat widget's member hash, the browser's integration settings and the
licence-link flow's address check, through HTTP on both stores."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator
from urllib.parse import parse_qs, urlsplit

import jwt
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.services import Services
from config.settings import Settings
from domain.accounts.guests import guest_buyer
from events.values import Language
from tests.fakes import ManualClock, PlainHasher, RecordingMailer
from tests.integration.test_accounts_api import V1, Site, bearer
from tests.support import START, running_projector

pytestmark = pytest.mark.integration

DESK = "https://help.unicornpro.test"


@pytest.fixture
def desk_site(settings: Settings) -> Iterator[Site]:
    configured = settings.model_copy(
        update={
            "zendesk_url": DESK,
            "chat_script_url": "https://chat.example.net/plugin/web.js",
            "chat_plugin_key": "plugin-key-1",
            "chat_member_secret_setting": "chat-secret-for-tests",
            "web_sentry_dsn": "https://public-key@o1.ingest.sentry.example/42",
        }
    )
    clock, mailer = ManualClock(START), RecordingMailer()
    services = Services.build(configured, clock=clock, hasher=PlainHasher(), mailer=mailer)
    with running_projector(configured), TestClient(create_app(services=services)) as client:
        yield Site(client, services, clock, mailer, configured)
    services.close()


def named_member(site: Site, email: str, name: str = "Desk") -> str:
    """Registers, confirms and names an account; returns its access token."""
    site.member(email)
    token = str(site.login(email)["accessToken"])
    assert site.client.patch(f"{V1}/accounts", headers=bearer(token), json={"name": name}).status_code == 200
    return token


def test_the_sign_on_address_is_the_desks_jwt_address_with_the_token_and_a_desk_return_address(
    desk_site: Site,
) -> None:
    token = named_member(desk_site, "desk@example.com")
    answer = desk_site.client.get(
        f"{V1}/auth/zendesk", headers=bearer(token), params={"returnTo": f"{DESK}/hc/ko/requests/new"}
    ).json()
    address = urlsplit(answer["signOnUrl"])
    assert f"{address.scheme}://{address.netloc}{address.path}" == f"{DESK}/access/jwt"
    query = parse_qs(address.query)
    assert query["jwt"] == [answer["zendeskJWT"]]
    assert query["return_to"] == [f"{DESK}/hc/ko/requests/new"]
    claims = jwt.decode(query["jwt"][0], desk_site.settings.zendesk_secret, algorithms=["HS256"])
    assert (claims["name"], claims["email"]) == ("Desk", "desk@example.com")


@pytest.mark.parametrize(
    "foreign",
    [
        "https://evil.example/hc",
        "https://help.unicornpro.test.evil.example/hc",
        "http://help.unicornpro.test/hc",
        "https://help.unicornpro.test:8443/hc",
        "https://user@help.unicornpro.test/hc",
        "//evil.example/hc",
        "javascript:alert(1)",
        "https://help.unicornpro.test:bad/hc",
    ],
)
def test_a_return_address_off_the_desks_host_is_replaced_by_the_desks_home(desk_site: Site, foreign: str) -> None:
    token = named_member(desk_site, "wander@example.com")
    answer = desk_site.client.get(f"{V1}/auth/zendesk", headers=bearer(token), params={"returnTo": foreign})
    assert answer.status_code == 200
    assert parse_qs(urlsplit(answer.json()["signOnUrl"]).query)["return_to"] == [f"{DESK}/"]


def test_the_chat_member_hash_is_the_hmac_of_the_account_id_and_needs_a_login(desk_site: Site) -> None:
    desk_site.register("chat@example.com")
    unconfirmed = desk_site.login("chat@example.com")
    assert desk_site.client.get(f"{V1}/integrations/chat-member").status_code == 401
    early = desk_site.client.get(f"{V1}/integrations/chat-member", headers=bearer(unconfirmed["accessToken"]))
    assert early.json()["errorCode"] == -401, "a chat identity waits for the confirmed address"
    desk_site.member("chat2@example.com")
    login = desk_site.login("chat2@example.com")
    member = desk_site.client.get(f"{V1}/integrations/chat-member", headers=bearer(login["accessToken"])).json()
    expected = hmac.new(b"chat-secret-for-tests", str(login["id"]).encode(), hashlib.sha256).hexdigest()
    assert member == {"memberId": login["id"], "memberHash": expected}


def test_the_web_app_reads_the_integration_settings_and_the_policy_allows_their_hosts(desk_site: Site) -> None:
    answer = desk_site.client.get(f"{V1}/integrations/settings")
    company = answer.json().pop("company")
    assert company["businessNumber"] == desk_site.settings.company_business_number
    assert company["mailOrderNumber"] == desk_site.settings.company_mail_order_number
    assert (company["phone"], company["hostingProvider"]) == (
        desk_site.settings.company_phone,
        desk_site.settings.company_hosting_provider,
    )
    assert company["businessNumberDigits"] == "".join(filter(str.isdigit, company["businessNumber"]))
    assert answer.json().pop("japanSeller") == {
        "name": desk_site.settings.jp_seller_name,
        "address": desk_site.settings.jp_seller_address,
        "phone": desk_site.settings.jp_seller_phone,
        "email": desk_site.settings.company_email,
        "responsible": desk_site.settings.jp_seller_responsible,
    }
    assert answer.json()["downloads"] == desk_site.settings.app_downloads
    assert set(desk_site.settings.app_downloads) == {"android", "ios", "mac", "windows"}
    assert {k: v for k, v in answer.json().items() if k not in ("company", "japanSeller", "downloads")} == {
        "deskUrl": DESK,
        "chatScriptUrl": "https://chat.example.net/plugin/web.js",
        "chatPluginKey": "plugin-key-1",
        "sentryDsn": "https://public-key@o1.ingest.sentry.example/42",
        "sentryEnvironment": desk_site.settings.app_env,
    }
    policy = dict(directive.split(" ", 1) for directive in answer.headers["Content-Security-Policy"].split("; "))
    assert "https://chat.example.net" in policy["script-src"].split()
    assert "https://o1.ingest.sentry.example" in policy["connect-src"].split()
    assert "public-key" not in answer.headers["Content-Security-Policy"]


def test_an_address_only_a_guest_purchase_opened_counts_as_unregistered(desk_site: Site) -> None:
    store = desk_site.services.store
    guest = guest_buyer(store, "guest@example.com", Language.KO, desk_site.clock.now())
    store.save(*guest.new_aggregates)
    check = desk_site.client.get(f"{V1}/accounts/check", params={"email": "guest@example.com"})
    assert check.json() == {"isRegistered": False}
    desk_site.register("guest@example.com")
    assert desk_site.client.get(f"{V1}/accounts/check", params={"email": "guest@example.com"}).json() == {
        "isRegistered": False
    }, "registering a guest's address is a claim until the mailbox proves it"
    assert desk_site.client.get(f"{V1}/accounts/check", params={"email": "nobody@example.com"}).json() == {
        "isRegistered": False
    }
