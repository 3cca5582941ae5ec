"""Finding 9 (notices): changes to how an account signs in happened in silence.

As it ran: someone who knew the password moved the account to their own address, and nothing was mailed to the old
one; a password reset told nobody either. Now the old address is told of an email change, and the account's address
of a password change or reset, in the account's language: what happened, when, and what to do if it was not them.
Each notice is mailed once, however often its task runs.
"""

from __future__ import annotations

import pytest

from domain.business_time import BUSINESS_TIME
from tests.integration.purchases.desk import PASSWORD, Desk
from tests.security.mailbox import deliver_mails, mailbox
from tests.support import register_confirmed

pytestmark = pytest.mark.integration

OWNER = "owner@example.com"
INTRUDER = "intruder@example.com"


def when(desk: Desk) -> str:
    return desk.clock().astimezone(BUSINESS_TIME).strftime("%Y-%m-%d %H:%M (KST)")


def test_moving_the_account_to_another_address_tells_the_old_one(desk: Desk) -> None:
    register_confirmed(desk.client, desk.services, OWNER, PASSWORD, language="en")
    # Someone who learned the password moves the account to their own mailbox.
    asked = desk.call("POST", "/accounts/email-change-email", as_email=OWNER, json={"email": INTRUDER, "pw": PASSWORD})
    assert asked.status_code == 200, asked.text
    deliver_mails(desk.services)
    [link] = [mail for mail in mailbox(desk.services, INTRUDER) if mail.links("/email-change/confirm?")]
    moved = desk.guest_call(
        "PUT", "/accounts/email-change", json={"token": link.link_query("/email-change/confirm?")["t"]}
    )
    assert moved.json() == {"email": INTRUDER}

    deliver_mails(desk.services)
    [notice] = [mail for mail in mailbox(desk.services, OWNER) if "was changed" in mail.subject]
    assert "email address was changed" in notice.subject
    assert f"from this address to {INTRUDER}" in notice.text and when(desk) in notice.text
    assert notice.links(desk.services.settings.zendesk_url), "where to go if it was not them"
    assert not [mail for mail in mailbox(desk.services, INTRUDER) if "was changed" in mail.subject]


def test_a_password_reset_is_told_to_the_account_address_in_its_language(desk: Desk) -> None:
    register_confirmed(desk.client, desk.services, OWNER, PASSWORD, language="ja")
    assert desk.guest_call("POST", "/accounts/password-change-email", json={"email": OWNER}).status_code == 200
    deliver_mails(desk.services)
    [reset] = [mail for mail in mailbox(desk.services, OWNER) if mail.links("/password/reset?")]
    link = reset.link_query("/password/reset?")["t"]
    assert (
        desk.guest_call("PUT", "/accounts/password-change", json={"pw": "newpass99", "token": link}).status_code == 200
    )

    deliver_mails(desk.services)
    [notice] = [mail for mail in mailbox(desk.services, OWNER) if "パスワードが再設定されました" in mail.subject]
    assert OWNER in notice.text and when(desk) in notice.text
    assert notice.links("/ja/password/find"), "a new reset link is one click away if it was not them"
    assert notice.links(desk.services.settings.zendesk_url)
