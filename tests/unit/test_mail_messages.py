"""A rendered mail becomes a MIME message any reader decodes back to what was rendered: UTF-8 subject, names and
text, the HTML alternative, extra headers and the stable Message-ID."""

from __future__ import annotations

import email
import email.policy
from email.message import EmailMessage

from domain.ports import MailMessage
from integrations.mail import build_email

RECEIPT = MailMessage(
    to="하늘 <haneul@example.com>",
    subject="[유니콘] 결제가 완료되었습니다",
    text="결제 금액: 29,000원\n라이선스 키: ABCD-EFGH\n",
    html="<p>결제 금액: <b>29,000원</b></p>",
    headers={"List-Unsubscribe": "<https://unicornpro.local/unsubscribe>", "X-Note": "갱신"},
    key="Storefront-42-0",
)


def _read(message: MailMessage, sender: str) -> EmailMessage:
    parsed = email.message_from_bytes(bytes(build_email(message, sender)), policy=email.policy.default)
    assert isinstance(parsed, EmailMessage)
    return parsed


def test_a_korean_mail_with_html_reads_back_as_rendered() -> None:
    read = _read(RECEIPT, "유니콘 <no-reply@unicornpro.local>")
    assert read["Subject"] == RECEIPT.subject
    assert read["To"].addresses[0].display_name == "하늘"
    assert read["To"].addresses[0].addr_spec == "haneul@example.com"
    assert read["From"].addresses[0].display_name == "유니콘"
    assert read["Message-ID"] == "<Storefront-42-0@unicornpro.local>"
    assert read["List-Unsubscribe"] == "<https://unicornpro.local/unsubscribe>"
    assert read["X-Note"] == "갱신"
    assert read.get_content_type() == "multipart/alternative"
    plain = read.get_body(("plain",))
    html = read.get_body(("html",))
    assert plain is not None and html is not None
    assert plain.get_content() == RECEIPT.text
    assert html.get_content().strip() == RECEIPT.html


def test_a_plain_ascii_mail_is_one_text_part_with_fresh_message_ids() -> None:
    plain = MailMessage(to="sky@example.com", subject="Your payment is complete", text="Amount: $49.99\n")
    first, second = (_read(plain, "AdBlock Unicorn <no-reply@unicornpro.local>") for _ in range(2))
    assert first.get_content_type() == "text/plain"
    assert first.get_content() == plain.text
    assert first["Subject"] == plain.subject
    assert str(first["From"]) == "AdBlock Unicorn <no-reply@unicornpro.local>"
    assert first["Message-ID"] != second["Message-ID"], "without a key each mail is its own"
    assert first["Message-ID"].endswith("@unicornpro.local>")


def test_a_body_goes_as_it_is_unless_a_line_is_longer_than_smtp_allows() -> None:
    korean = bytes(build_email(RECEIPT, "no-reply@unicornpro.local"))
    assert "라이선스 키: ABCD-EFGH".encode() in korean, "readable in the raw mail (8bit)"
    long_line = MailMessage(to="sky@example.com", subject="Long", text="가" * 400 + "\n")
    raw = bytes(build_email(long_line, "no-reply@unicornpro.local"))
    assert b"Content-Transfer-Encoding: base64" in raw
    assert _read(long_line, "no-reply@unicornpro.local").get_content() == long_line.text


def test_a_receipt_says_lifetime_for_a_lifetime_licence_and_a_date_otherwise() -> None:
    """Issue 29, finding 4: a lifetime licence's record ends in 100 years; the receipt says lifetime instead."""
    from datetime import UTC, datetime

    from domain.payments.mails import PurchaseFacts, render_receipt
    from events.values import Currency, Language

    facts = {
        "to": "buyer@example.com",
        "licence_name": "Unicorn Pro for Windows Lifetime",
        "amount": 59000,
        "currency": Currency.KRW,
        "licence_key": "AAAA-BBBB-CCCC-DDDD",
        "merchant_uid": "order-1",
        "expires_at": datetime(2126, 11, 3, tzinfo=UTC),
    }
    for language, lifetime_text in ((Language.EN, "lifetime"), (Language.KO, "평생"), (Language.JA, "買い切り")):
        text = render_receipt(PurchaseFacts(language=language, lifetime=True, **facts)).text  # type: ignore[arg-type]
        assert lifetime_text in text and "2126" not in text
    annual = render_receipt(PurchaseFacts(language=Language.EN, **facts)).text  # type: ignore[arg-type]
    assert "Valid: until 2126-11-03" in annual
