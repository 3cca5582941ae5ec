"""A customer's card details go to the gateway and nowhere else: not the log, the views, the logs or the mail.

The customer registers a typed card and keeps a key issued in a PG window, subscribes yearly with one
and monthly with the other, is renewed for a year and told of the yearly renewal, and every mail is
delivered. Then every row of every table of the database (the event log and
the views), every mail in the outbox and every log record at DEBUG is searched for the card number,
its expiry, its password digits and the birth date. Only the gateway (the sandbox) may hold them.
"""

from __future__ import annotations

import logging
from datetime import timedelta

import psycopg
import pytest

from tests.integration.purchases.desk import Desk
from workers.tasks.subscriptions import record_due_reminders

pytestmark = pytest.mark.integration

# Distinctive values, built at run time so that no source line the logs might quote holds them whole.
CARD_NUMBER = "".join(("4111", "1111", "1111", "1111"))
WINDOW_CARD_NUMBER = "".join(("5555", "5555", "5555", "4444"))  # the PG window's card (one wallet, one card each)
EXPIRY_YEAR, EXPIRY_MONTH = 2031, 7
PASSWORD_DIGITS = "".join(("3", "8"))
BIRTH = "".join(("77", "11", "22"))
CARD = {
    "cardNumber": CARD_NUMBER,
    "expiryYear": EXPIRY_YEAR,
    "expiryMonth": EXPIRY_MONTH,
    "password": PASSWORD_DIGITS,
    "birth": BIRTH,
}
# What would give the card away: the number (or its hidden middle), the expiry in its usual spellings,
# the birth date, and the password digits as a field's value.
GIVEAWAYS = [
    CARD_NUMBER,
    CARD_NUMBER[6:12] + CARD_NUMBER[12:],
    WINDOW_CARD_NUMBER,
    WINDOW_CARD_NUMBER[6:12] + WINDOW_CARD_NUMBER[12:],
    f"{EXPIRY_YEAR}-{EXPIRY_MONTH:02d}",
    f"{EXPIRY_MONTH:02d}/{EXPIRY_YEAR % 100:02d}",
    f"{EXPIRY_YEAR}{EXPIRY_MONTH:02d}",
    BIRTH,
    f'"password": "{PASSWORD_DIGITS}"',
    f'"password":"{PASSWORD_DIGITS}"',
    f"'password': '{PASSWORD_DIGITS}'",
]


def _as_text(value: object) -> str:
    # Stored event states are bytes (JSON): read them as text, as anyone reading the database could.
    if isinstance(value, bytes | memoryview):
        return bytes(value).decode("utf-8", errors="replace")
    return str(value)


def database_text(url: str) -> tuple[dict[str, str], int]:
    """Every table of the database, each row as text; and how many rows there were."""
    dumped, count = {}, 0
    with psycopg.connect(url) as connection:
        tables = connection.execute(
            "SELECT schemaname, tablename FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')"
        ).fetchall()
        for schema, table in tables:
            rows = connection.execute(f'SELECT * FROM "{schema}"."{table}"').fetchall()
            count += len(rows)
            dumped[f"{schema}.{table}"] = "\n".join(" ".join(_as_text(value) for value in row) for row in rows)
    return dumped, count


def found_in(texts: dict[str, str]) -> dict[str, list[str]]:
    return {where: hits for where, text in texts.items() if (hits := [g for g in GIVEAWAYS if g in text])}


def test_card_details_appear_nowhere_after_keys_are_kept_and_renewals_run(
    desk: Desk, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    typed = desk.call("PUT", "/billingkeys", json=CARD)
    assert typed.status_code == 200, typed.text
    window = desk.call("GET", "/billingkeys/customerUid", params={"requestType": "creditCard"}).json()
    assert desk.issue_key_in_window(window, card=WINDOW_CARD_NUMBER)["success"] is True
    kept = desk.call("PUT", "/billingkeys", json={"customerUid": window["customerUid"]})
    assert kept.status_code == 200, kept.text
    yearly = desk.call("POST", "/payments/licenses/subscribe/new", json={"licenseId": 121, "countryCode": "KR"})
    assert yearly.status_code == 200, yearly.text
    monthly = desk.call(
        "POST",
        "/payments/licenses/subscribe/new",
        json={"licenseId": 111, "countryCode": "KR", "billingkeyId": kept.json()["billingkeyId"]},
    )
    assert monthly.status_code == 200, monthly.text
    renewed, reminded = [], 0
    for _ in range(14):  # 392 days
        desk.clock.advance(timedelta(days=28))
        renewed += desk.beat()
        reminded += record_due_reminders(desk.services)
    assert len(renewed) == 14 and reminded >= 2  # 13 monthly renewals, the yearly one, reminders of both kinds
    mails = desk.deliver_mails()
    assert mails, "the renewal reminders were sent"

    settings = desk.services.settings
    assert settings.database_url
    texts, rows = database_text(settings.database_url)
    # The searches can find what is there: the card's mask is kept, and is found, in the log and the views.
    mask = typed.json()["cardNumber"]
    assert {where for where, text in texts.items() if mask in text} >= {"public.storefront_events"}, mask
    texts |= {f"outbox/{path.name}": path.read_text(errors="replace") for path in settings.outbox_dir.glob("*.eml")}
    texts["log records"] = "\n".join(
        f"{record.getMessage()} {record.args!r} {vars(record)!r}" for record in caplog.records
    )
    assert found_in(texts) == {}
    print(
        f"searched {len(texts)} places ({rows} database rows, {len(mails)} mails, {len(caplog.records)} log records)"
        f" after 2 keys kept, {len(renewed)} renewals and {reminded} notice:"
        " no card number, expiry, password digits or birth date"
    )
