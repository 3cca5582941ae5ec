"""Accounts and authentication through HTTP, on SQLite and on PostgreSQL.

The story: register, receive the confirmation mail (run from the reaction), confirm,
log in, refresh (the rt cookie rotates; an old one revokes the family), change the
profile, log out; then the refusals, and one account never touching another's data.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import parse_qs, urlsplit
from uuid import UUID

import jwt
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.services import Services
from config.settings import Settings
from domain.accounts.auth import refresh_session
from domain.accounts.tokens import parse_refresh_token
from domain.errors import DomainError
from events.values import Language
from tests.fakes import ManualClock, PlainHasher, RecordingMailer
from tests.support import START, running_projector
from workers.reactions import REACTIONS
from workers.tasks.mail import (
    deliver_confirmation_mail,
    deliver_email_change_mail,
    deliver_password_reset_mail,
)

pytestmark = pytest.mark.integration

V1 = "/web/unicornpro/v1"


@dataclass
class Site:
    client: TestClient
    services: Services
    clock: ManualClock
    mailer: RecordingMailer
    settings: Settings

    def register(self, email: str, pw: str = "abcd1234", language: str = "ko") -> dict[str, object]:
        answer = self.client.post(
            f"{V1}/accounts",
            params={"redirectionUri": "http://127.0.0.1:8000/ko/register"},
            json={"email": email, "pw": pw, "language": language, "marketingPushEnabled": True},
        )
        assert answer.status_code == 200, answer.text
        body: dict[str, object] = answer.json()
        return body

    def member(self, email: str, pw: str = "abcd1234", language: str = "ko") -> dict[str, object]:
        """Register, then open the confirmation link from the mail."""
        body = self.register(email, pw, language)
        self.deliver_mails()
        opened = self.client.get(f"{V1}/accounts/confirm", params={"t": self.link_token(email, "/accounts/confirm")})
        assert "errorCode" not in opened.headers.get("location", ""), opened.headers
        return body

    def deliver_mails(self) -> None:
        """What the reactor and the worker do: every reaction's task, each run twice (at least once)."""
        wiring = (self.settings, self.services.store, self.services.views, self.mailer, self.clock)
        for notification in self.services.store.recorder.select_notifications(start=1, limit=1000):
            event = self.services.store.mapper.to_domain_event(notification)
            reaction = REACTIONS.get(type(event))
            for index, call in enumerate(reaction(event) if reaction else []):
                task_id = f"Storefront-{notification.id}-{index}"
                account_id = UUID(call.kwargs["account_id"])
                for _ in range(2):
                    if call.name == "accounts.send_confirmation_mail":
                        deliver_confirmation_mail(*wiring, task_id=task_id, account_id=account_id)
                    elif call.name == "accounts.send_password_reset_mail":
                        deliver_password_reset_mail(
                            *wiring,
                            task_id=task_id,
                            account_id=account_id,
                            reset_id=call.kwargs["reset_id"],
                            language=Language(call.kwargs["language"]),
                        )
                    elif call.name == "accounts.send_email_change_mail":
                        deliver_email_change_mail(
                            *wiring,
                            task_id=task_id,
                            account_id=account_id,
                            change_id=call.kwargs["change_id"],
                        )
                    else:
                        raise AssertionError(call.name)

    def link_token(self, email: str, marker: str, nth: int = -1) -> str:
        """The t= value of the nth mail to ``email`` whose link contains ``marker``."""
        links = [
            word
            for mail in self.mailer.sent
            if mail.to == email
            for word in mail.text.split()
            if marker in word and "?t=" in word
        ]
        assert links, f"no {marker} link mailed to {email}"
        return links[nth].split("?t=", 1)[1]

    def confirmation_path(self, email: str) -> str:
        mails = [mail for mail in self.mailer.sent if mail.to == email]
        assert len(mails) == 1, f"{len(mails)} mails to {email}"
        link = next(word for word in mails[0].text.split() if "/accounts/confirm?t=" in word)
        parts = urlsplit(link)
        return f"{parts.path}?{parts.query}"

    def login(self, email: str, pw: str = "abcd1234") -> dict[str, object]:
        answer = self.client.post(f"{V1}/auth/login", json={"email": email, "pw": pw})
        assert answer.status_code == 200, answer.text
        body: dict[str, object] = answer.json()
        return body


@pytest.fixture
def site(settings: Settings) -> Iterator[Site]:
    clock, mailer = ManualClock(START), RecordingMailer()
    services = Services.build(settings, clock=clock, hasher=PlainHasher(), mailer=mailer)
    with running_projector(settings), TestClient(create_app(services=services)) as client:
        yield Site(client, services, clock, mailer, settings)
    services.close()


def bearer(token: object) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_register_confirm_log_in_refresh_change_profile_and_log_out(site: Site) -> None:
    client = site.client
    registered = site.register("Mina@Example.com", language="en")
    assert registered["emailConfirmed"] is False
    user_id = str(registered["userId"])
    assert client.get(f"{V1}/accounts/check", params={"email": "mina@example.com"}).json() == {"isRegistered": True}

    # Logging in before confirming works, with scope 0.
    early = site.login("mina@example.com")
    assert (early["id"], early["email"], early["scope"]) == (user_id, "mina@example.com", 0)

    site.deliver_mails()
    assert len(site.mailer.sent) == 1, "a repeated task sends nothing more"
    mail = site.mailer.sent[0]
    assert mail.to == "mina@example.com"
    assert "confirm your email" in mail.subject
    confirmed = client.get(site.confirmation_path("mina@example.com"), follow_redirects=False)
    assert confirmed.status_code == 303
    target = urlsplit(confirmed.headers["location"])
    assert target.path == "/register/confirm"
    assert parse_qs(target.query) == {"email": ["mina@example.com"], "localeCode": ["en"]}

    site.clock.advance(timedelta(minutes=1))
    login = client.post(f"{V1}/auth/login", json={"email": "MINA@example.com", "pw": "abcd1234"})
    assert login.status_code == 200
    body = login.json()
    assert set(body) == {"id", "email", "scope", "accessToken", "exp"}
    assert (body["id"], body["scope"]) == (user_id, 1)
    assert body["exp"] == int((site.clock.now() + timedelta(minutes=30)).timestamp())
    set_cookies = login.headers.get_list("set-cookie")
    rt_header = next(header for header in set_cookies if header.startswith("rt="))
    assert "HttpOnly" in rt_header
    assert "Path=/web/unicornpro/v1/auth" in rt_header
    assert "samesite=lax" in rt_header.lower()
    logged_in_header = next(header for header in set_cookies if header.startswith("logged_in="))
    assert logged_in_header.startswith(f"logged_in={user_id};")
    assert "HttpOnly" not in logged_in_header
    first_rt = client.cookies.get("rt")
    assert first_rt and first_rt.startswith(f"{first_rt.split('.')[0]}.")

    account = client.get(f"{V1}/accounts", headers=bearer(body["accessToken"]))
    assert account.status_code == 200
    assert account.json()["prefferedLanguage"] == "en"
    assert account.json()["emailConfirmed"] is True
    assert account.json()["marketingPushEnabled"] is True

    refreshed = client.get(f"{V1}/auth/refresh")
    assert refreshed.status_code == 200, refreshed.text
    assert (refreshed.json()["id"], refreshed.json()["scope"]) == (user_id, 1)
    second_rt = client.cookies.get("rt")
    assert second_rt and second_rt != first_rt
    assert second_rt.split(".")[0] == first_rt.split(".")[0], "same family"

    changed = client.patch(
        f"{V1}/accounts",
        headers=bearer(refreshed.json()["accessToken"]),
        json={"name": "Mina", "prefferedLanguage": "ja", "marketingPushEnabled": False},
    )
    assert changed.status_code == 200, changed.text
    assert {k: changed.json()[k] for k in ("name", "prefferedLanguage", "marketingPushEnabled")} == {
        "name": "Mina",
        "prefferedLanguage": "ja",
        "marketingPushEnabled": False,
    }
    assert client.get(f"{V1}/accounts", headers=bearer(refreshed.json()["accessToken"])).json()["name"] == "Mina"

    checked = client.post(
        f"{V1}/accounts/check-password",
        headers=bearer(refreshed.json()["accessToken"]),
        json={"pw": "abcd1234"},
    )
    assert checked.status_code == 200

    out = client.post(f"{V1}/auth/logout")
    assert out.status_code == 200
    assert client.cookies.get("rt") is None
    assert client.cookies.get("logged_in") is None
    client.cookies.set("rt", second_rt, path="/web/unicornpro/v1/auth")
    after = client.get(f"{V1}/auth/refresh")
    assert after.status_code == 401
    assert after.json()["errorCode"] == 401


def test_an_old_refresh_token_is_refused_and_its_reuse_revokes_the_whole_family(site: Site) -> None:
    site.register("reuse@example.com")
    site.login("reuse@example.com")
    client = site.client
    stolen = client.cookies.get("rt")
    assert client.get(f"{V1}/auth/refresh").status_code == 200
    current = client.cookies.get("rt")
    assert current != stolen

    client.cookies.clear()
    client.cookies.set("rt", stolen, path="/web/unicornpro/v1/auth")
    reused = client.get(f"{V1}/auth/refresh")
    assert reused.status_code == 401
    assert reused.json()["errorCode"] == 401

    client.cookies.clear()
    client.cookies.set("rt", current, path="/web/unicornpro/v1/auth")
    assert client.get(f"{V1}/auth/refresh").status_code == 401, "the family is revoked for everyone"

    client.cookies.clear()
    site.login("reuse@example.com")
    assert client.get(f"{V1}/auth/refresh").status_code == 200, "a new login starts a new family"


def test_a_refresh_token_ends_with_its_lifetime_and_an_access_token_after_thirty_minutes(site: Site) -> None:
    site.register("time@example.com")
    body = site.login("time@example.com")
    site.clock.advance(timedelta(minutes=30))
    expired = site.client.get(f"{V1}/accounts", headers=bearer(body["accessToken"]))
    assert expired.status_code == 401
    assert expired.json()["errorCode"] == 401
    assert site.client.get(f"{V1}/auth/refresh").status_code == 200
    site.clock.advance(timedelta(days=31))
    assert site.client.get(f"{V1}/auth/refresh").status_code == 401


def test_login_refusals_answer_minus_400_with_http_401(site: Site) -> None:
    site.register("who@example.com")
    for credentials in (
        {"email": "who@example.com", "pw": "wrong1234"},
        {"email": "nobody@example.com", "pw": "abcd1234"},
    ):
        answer = site.client.post(f"{V1}/auth/login", json=credentials)
        assert answer.status_code == 401
        assert answer.json()["errorCode"] == -400
        assert "rt" not in site.client.cookies


def test_registration_refusals(site: Site) -> None:
    site.register("taken@example.com")
    post = site.client.post
    taken = post(f"{V1}/accounts", json={"email": "TAKEN@example.com", "pw": "abcd1234", "language": "ko"})
    assert (taken.status_code, taken.json()["errorCode"]) == (409, -402)
    cases = [
        ({"pw": "abcd1234", "language": "ko"}, -1),
        ({"email": "", "pw": "abcd1234", "language": "ko"}, -1),
        ({"email": "new@example.com", "pw": "", "language": "ko"}, -1),
        ({"email": "not-an-email", "pw": "abcd1234", "language": "ko"}, -2),
        ({"email": "new@example.com", "pw": "short1", "language": "ko"}, -2),
        ({"email": "new@example.com", "pw": "onlyletters", "language": "ko"}, -2),
        ({"email": "new@example.com", "pw": "abcd1234", "language": "fr"}, -2),
    ]
    for body, code in cases:
        answer = post(f"{V1}/accounts", json=body)
        assert (answer.status_code, answer.json()["errorCode"]) == (400, code), body
    assert (
        post(f"{V1}/accounts", json={"email": "new@example.com", "pw": "abcd1234", "language": "ja"}).status_code == 200
    )


def test_bearer_calls_refuse_a_missing_or_bad_token_with_401(site: Site) -> None:
    for headers in ({}, {"Authorization": "Bearer nonsense"}, {"Authorization": "Basic abc"}):
        answer = site.client.get(f"{V1}/accounts", headers=headers)
        assert answer.status_code == 401
        assert answer.json()["errorCode"] == 401
        assert site.client.patch(f"{V1}/accounts", headers=headers, json={"name": "x"}).status_code == 401
        assert site.client.put(f"{V1}/accounts/delete", headers=headers, json={}).status_code == 401


def test_a_wrong_password_check_answers_minus_406(site: Site) -> None:
    site.register("check@example.com")
    token = site.login("check@example.com")["accessToken"]
    answer = site.client.post(f"{V1}/accounts/check-password", headers=bearer(token), json={"pw": "wrong9999"})
    assert (answer.status_code, answer.json()["errorCode"]) == (400, -406)


def test_a_nickname_belongs_to_one_account_until_it_is_given_up(site: Site) -> None:
    site.member("one@example.com")
    site.member("two@example.com")
    one = site.login("one@example.com")["accessToken"]
    two = site.login("two@example.com")["accessToken"]
    assert site.client.patch(f"{V1}/accounts", headers=bearer(one), json={"name": "Unicorn"}).status_code == 200
    taken = site.client.patch(f"{V1}/accounts", headers=bearer(two), json={"name": " unicorn "})
    assert (taken.status_code, taken.json()["errorCode"]) == (409, -411)
    assert (
        site.client.patch(f"{V1}/accounts", headers=bearer(one), json={"name": "Pegasus"}).json()["name"] == "Pegasus"
    )
    assert (
        site.client.patch(f"{V1}/accounts", headers=bearer(two), json={"name": "Unicorn"}).json()["name"] == "Unicorn"
    )
    same = site.client.patch(f"{V1}/accounts", headers=bearer(one), json={"name": "Pegasus"})
    assert same.status_code == 200, "keeping one's own nickname is not a conflict"


def test_one_account_never_reads_or_changes_another(site: Site) -> None:
    first = site.register("first@example.com")
    second = site.register("second@example.com")
    token = site.login("first@example.com")["accessToken"]
    mine = site.client.get(f"{V1}/accounts", headers=bearer(token)).json()
    assert (mine["id"], mine["email"]) == (first["userId"], "first@example.com")
    site.client.patch(f"{V1}/accounts", headers=bearer(token), json={"name": "First", "prefferedLanguage": "en"})
    second_token = site.login("second@example.com")["accessToken"]
    theirs = site.client.get(f"{V1}/accounts", headers=bearer(second_token)).json()
    assert (theirs["id"], theirs["name"], theirs["prefferedLanguage"]) == (second["userId"], None, "ko")
    # A token for the first account cannot be bent into the second: the id comes only from the signature.
    forged = str(token).split(".")
    assert site.client.get(f"{V1}/accounts", headers=bearer(f"{forged[0]}.{forged[1]}x.{forged[2]}")).status_code == 401


def test_deleting_frees_the_address_for_a_new_registration_and_ends_the_session(site: Site) -> None:
    first = site.member("gone@example.com")
    token = site.login("gone@example.com")["accessToken"]
    site.client.patch(f"{V1}/accounts", headers=bearer(token), json={"name": "Gone"})
    deleted = site.client.put(f"{V1}/accounts/delete", headers=bearer(token), json={"deletedReason": "too many mails"})
    assert deleted.status_code == 200, deleted.text
    assert site.client.cookies.get("rt") is None
    assert site.client.get(f"{V1}/accounts/check", params={"email": "gone@example.com"}).json() == {
        "isRegistered": False
    }
    assert site.client.get(f"{V1}/accounts", headers=bearer(token)).status_code == 404
    assert site.client.patch(f"{V1}/accounts", headers=bearer(token), json={"name": "Back"}).status_code == 401
    refused = site.client.post(f"{V1}/auth/login", json={"email": "gone@example.com", "pw": "abcd1234"})
    assert refused.json()["errorCode"] == -400

    again = site.member("gone@example.com", pw="newpass99")
    assert again["userId"] != first["userId"]
    assert site.login("gone@example.com", "newpass99")["id"] == again["userId"]
    new_token = site.login("gone@example.com", "newpass99")["accessToken"]
    renamed = site.client.patch(f"{V1}/accounts", headers=bearer(new_token), json={"name": "Gone"})
    assert renamed.status_code == 200, "the deleted account's nickname is free too"
    taken = site.client.post(f"{V1}/accounts", json={"email": "gone@example.com", "pw": "abcd1234", "language": "ko"})
    assert taken.json()["errorCode"] == -402


def test_other_sessions_of_a_deleted_account_cannot_refresh(site: Site) -> None:
    site.register("two-devices@example.com")
    site.login("two-devices@example.com")
    other_device = site.client.cookies.get("rt")
    site.client.cookies.clear()
    token = site.login("two-devices@example.com")["accessToken"]
    site.client.put(f"{V1}/accounts/delete", headers=bearer(token), json={"deletedReason": ""})
    site.client.cookies.set("rt", other_device, path="/web/unicornpro/v1/auth")
    assert site.client.get(f"{V1}/auth/refresh").status_code == 401


def test_a_bad_or_foreign_confirmation_link_redirects_with_minus_405(site: Site) -> None:
    site.register("link@example.com")
    site.deliver_mails()
    path = site.confirmation_path("link@example.com")
    bad = site.client.get(path + "x", follow_redirects=False)
    assert bad.status_code == 303
    assert parse_qs(urlsplit(bad.headers["location"]).query) == {"errorCode": ["-405"]}
    site.clock.advance(timedelta(hours=25))
    expired = site.client.get(path, follow_redirects=False)
    assert parse_qs(urlsplit(expired.headers["location"]).query) == {"errorCode": ["-405"]}
    token = site.login("link@example.com")["accessToken"]
    assert (
        site.client.get(f"{V1}/accounts/confirm", params={"t": token}, follow_redirects=False)
        .headers["location"]
        .endswith("errorCode=-405")
    )


def test_logins_and_mail_sends_are_rate_limited_with_minus_4(site: Site) -> None:
    site.register("limited@example.com")
    answers = [
        site.client.post(f"{V1}/auth/login", json={"email": "limited@example.com", "pw": "wrong1234"})
        for _ in range(11)
    ]
    assert [a.json()["errorCode"] for a in answers[:10]] == [-400] * 10
    assert (answers[10].status_code, answers[10].json()["errorCode"]) == (429, -4)
    other = site.client.post(f"{V1}/auth/login", json={"email": "other@example.com", "pw": "wrong1234"})
    assert other.json()["errorCode"] == -400, "the limit is per address"

    codes = [
        site.client.post(
            f"{V1}/accounts", json={"email": f"m{i}@example.com", "pw": "abcd1234", "language": "ko"}
        ).status_code
        for i in range(20)
    ]
    assert codes[:19] == [200] * 19, "one registration was made above"
    assert codes[19] == 429


def test_a_forgotten_password_is_reset_through_a_mailed_link_once(site: Site) -> None:
    client = site.client
    site.register("forgot@example.com", language="en")
    site.login("forgot@example.com")
    old_rt = client.cookies.get("rt")
    asked = client.post(
        f"{V1}/accounts/password-change-email",
        params={"localeCode": "ja"},
        json={"email": "forgot@example.com"},
    )
    assert asked.status_code == 200
    unknown = client.post(f"{V1}/accounts/password-change-email", json={"email": "nobody@example.com"})
    assert unknown.status_code == 200, "no hint whether an address is registered"
    site.deliver_mails()
    reset_mails = [mail for mail in site.mailer.sent if "パスワード" in mail.subject]
    assert len(reset_mails) == 1, "in the page's language, once"
    assert "/ja/password/reset?t=" in reset_mails[0].text
    token = site.link_token("forgot@example.com", "/password/reset")

    checked = client.get(f"{V1}/accounts/password-change-check", params={"t": token})
    assert checked.json() == {"email": "forgot@example.com"}
    weak = client.put(f"{V1}/accounts/password-change", json={"pw": "weak", "token": token})
    assert weak.json()["errorCode"] == -2
    same = client.put(f"{V1}/accounts/password-change", json={"pw": "abcd1234", "token": token})
    assert same.json()["errorCode"] == -406
    site.clock.advance(timedelta(seconds=1))
    done = client.put(f"{V1}/accounts/password-change", json={"pw": "fresh2026", "token": token})
    assert done.status_code == 200, done.text

    again = client.put(f"{V1}/accounts/password-change", json={"pw": "other2026", "token": token})
    assert (again.status_code, again.json()["errorCode"]) == (400, -405), "a link works once"
    assert client.get(f"{V1}/accounts/password-change-check", params={"t": token}).json()["errorCode"] == -405
    assert (
        client.post(f"{V1}/auth/login", json={"email": "forgot@example.com", "pw": "abcd1234"}).json()["errorCode"]
        == -400
    )
    client.cookies.clear()
    client.cookies.set("rt", old_rt, path="/web/unicornpro/v1/auth")
    assert client.get(f"{V1}/auth/refresh").status_code == 401, "sessions from before the reset end"
    assert site.login("forgot@example.com", "fresh2026")["email"] == "forgot@example.com"


def test_a_newer_reset_request_makes_the_older_link_stale_and_links_expire(site: Site) -> None:
    site.register("twice@example.com")
    client = site.client
    client.post(f"{V1}/accounts/password-change-email", json={"email": "twice@example.com"})
    site.deliver_mails()
    first = site.link_token("twice@example.com", "/password/reset")
    client.post(f"{V1}/accounts/password-change-email", json={"email": "twice@example.com", "resend": True})
    client.post(f"{V1}/accounts/password-change-email", json={"email": "twice@example.com"})
    site.deliver_mails()
    resent = site.link_token("twice@example.com", "/password/reset", nth=-2)
    newest = site.link_token("twice@example.com", "/password/reset")
    assert client.get(f"{V1}/accounts/password-change-check", params={"t": first}).json()["errorCode"] == -405
    assert client.get(f"{V1}/accounts/password-change-check", params={"t": resent}).json()["errorCode"] == -405
    assert client.get(f"{V1}/accounts/password-change-check", params={"t": newest}).status_code == 200
    site.clock.advance(timedelta(hours=1))
    assert client.get(f"{V1}/accounts/password-change-check", params={"t": newest}).json()["errorCode"] == -405


def test_an_email_change_needs_the_password_and_a_link_mailed_to_the_new_address(site: Site) -> None:
    client = site.client
    site.member("old@example.com")
    site.register("busy@example.com")
    token = site.login("old@example.com")["accessToken"]
    url = f"{V1}/accounts/email-change-email"
    wrong = client.post(url, headers=bearer(token), json={"email": "new@example.com", "pw": "wrong9999"})
    assert wrong.json()["errorCode"] == -406
    busy = client.post(url, headers=bearer(token), json={"email": "BUSY@example.com", "pw": "abcd1234"})
    assert busy.json()["errorCode"] == -402
    same = client.post(url, headers=bearer(token), json={"email": "old@example.com", "pw": "abcd1234"})
    assert same.json()["errorCode"] == -402, "one's own address is taken too"
    assert client.post(url, json={"email": "new@example.com", "pw": "abcd1234"}).status_code == 401
    asked = client.post(url, headers=bearer(token), json={"email": "New@example.com", "pw": "abcd1234"})
    assert asked.status_code == 200, asked.text

    site.deliver_mails()
    link = site.link_token("new@example.com", "/account/email-change/confirm")
    moved = client.put(f"{V1}/accounts/email-change", json={"token": link})
    assert moved.json() == {"email": "new@example.com"}
    assert client.put(f"{V1}/accounts/email-change", json={"token": link}).json()["errorCode"] == -405
    check = f"{V1}/accounts/check"
    assert client.get(check, params={"email": "new@example.com"}).json() == {"isRegistered": True}
    assert client.get(check, params={"email": "old@example.com"}).json() == {"isRegistered": False}
    assert client.get(f"{V1}/accounts", headers=bearer(token)).json()["email"] == "new@example.com"
    assert site.login("new@example.com")["scope"] == 1, "the new address is proven by its link"
    assert (
        client.post(f"{V1}/auth/login", json={"email": "old@example.com", "pw": "abcd1234"}).json()["errorCode"] == -400
    )
    assert site.register("old@example.com")["emailConfirmed"] is False, "the old address is free again"


def test_the_confirmation_mail_can_be_asked_for_again_but_only_for_ones_own_account(site: Site) -> None:
    mine = site.register("again@example.com")
    other = site.register("someone@example.com")
    token = site.login("again@example.com")["accessToken"]
    foreign = site.client.post(f"{V1}/accounts/{other['userId']}/please-one-more-confirm-email", headers=bearer(token))
    assert foreign.status_code == 403
    path = f"{V1}/accounts/{mine['userId']}/please-one-more-confirm-email"
    assert site.client.post(path, headers=bearer(token), params={"redirectionUri": "x"}).status_code == 200
    assert site.client.post(path).status_code == 200, "also right after registering, before logging in"
    site.deliver_mails()
    assert len([mail for mail in site.mailer.sent if mail.to == "again@example.com"]) == 3
    confirmed = site.client.get(
        f"{V1}/accounts/confirm",
        params={"t": site.link_token("again@example.com", "/accounts/confirm")},
        follow_redirects=False,
    )
    assert "errorCode" not in confirmed.headers["location"]
    assert site.client.post(path).status_code == 200
    count = len(site.mailer.sent)
    site.deliver_mails()
    assert len(site.mailer.sent) == count, "nothing to confirm any more"
    for _ in range(2):
        site.client.post(path)
    limited = site.client.post(path)
    assert (limited.status_code, limited.json()["errorCode"]) == (429, -4)


def test_support_desk_sign_on_needs_a_confirmed_account_with_a_name(site: Site) -> None:
    site.register("desk@example.com")
    token = site.login("desk@example.com")["accessToken"]
    assert site.client.get(f"{V1}/auth/zendesk").status_code == 401
    assert site.client.get(f"{V1}/auth/zendesk", headers=bearer(token)).json()["errorCode"] == -401
    site.deliver_mails()
    site.client.get(f"{V1}/accounts/confirm", params={"t": site.link_token("desk@example.com", "/accounts/confirm")})
    assert site.client.get(f"{V1}/auth/zendesk", headers=bearer(token)).json()["errorCode"] == -401, "an old token"
    token = site.login("desk@example.com")["accessToken"]  # the web app renews its token after the confirmation
    unnamed = site.client.get(f"{V1}/auth/zendesk", headers=bearer(token))
    assert (unnamed.status_code, unnamed.json()["errorCode"]) == (400, -2101)
    site.client.patch(f"{V1}/accounts", headers=bearer(token), json={"name": "Desk"})
    answer = site.client.get(f"{V1}/auth/zendesk", headers=bearer(token))
    assert answer.status_code == 200
    claims = jwt.decode(answer.json()["zendeskJWT"], site.settings.zendesk_secret, algorithms=["HS256"])
    assert (claims["name"], claims["email"]) == ("Desk", "desk@example.com")
    assert claims["external_id"] == str(site.login("desk@example.com")["id"])


def test_racing_refreshes_with_one_token_let_one_win_and_then_revoke_the_family(site: Site) -> None:
    site.register("race@example.com")
    site.login("race@example.com")
    presented = site.client.cookies.get("rt")
    outcomes: list[str] = []
    lock = threading.Lock()

    def refresh() -> None:
        try:
            refresh_session(site.services.store, site.clock, site.settings.auth_secret, presented)
            result = "ok"
        except DomainError as error:
            result = str(error.code.value)
        with lock:
            outcomes.append(result)

    threads = [threading.Thread(target=refresh) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(outcomes) == ["401"] * 5 + ["ok"]
    family = parse_refresh_token(presented)
    assert family is not None
    session = site.services.store.repository.get(family.family_id)
    assert session.revoked and session.revoked_reason == "reuse"
