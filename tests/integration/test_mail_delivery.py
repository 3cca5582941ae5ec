"""Mail leaves over a real SMTP exchange, or lands in var/outbox/ as .eml files."""

from __future__ import annotations

import email
import email.header
import socket
from collections.abc import Iterator
from dataclasses import replace
from email.message import Message
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from domain.ports import MailMessage
from integrations.mail import OutboxMailer, SmtpMailer, mailer_from_settings
from tests.conftest import make_settings

pytestmark = pytest.mark.integration

WELCOME = MailMessage(
    to="haneul@example.com",
    subject="[유니콘] 이메일 인증",
    text="아래 링크를 눌러 인증해 주세요: http://127.0.0.1:8000/register/confirm?email=haneul%40example.com",
    html="<p>아래 링크를 눌러 인증해 주세요</p>",
)


class _Inbox:
    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append(email.message_from_bytes(envelope.content))
        return "250 OK"


@pytest.fixture
def smtp_server() -> Iterator[tuple[int, _Inbox]]:
    inbox = _Inbox()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield port, inbox
    finally:
        controller.stop()


def _text_of(message: Message) -> str:
    for part in message.walk():
        if part.get_content_type() == "text/plain":
            payload = part.get_payload(decode=True)
            assert isinstance(payload, bytes)
            return payload.decode(part.get_content_charset() or "utf-8")
    raise AssertionError("no text part")


def test_a_korean_mail_crosses_a_real_smtp_exchange_intact(smtp_server: tuple[int, _Inbox], tmp_path: Path) -> None:
    port, inbox = smtp_server
    mailer = mailer_from_settings(make_settings(tmp_path, SMTP_URL=f"smtp://127.0.0.1:{port}"))
    assert isinstance(mailer, SmtpMailer)
    mailer.send(WELCOME)
    assert len(inbox.messages) == 1
    received = inbox.messages[0]
    assert received["To"] == "haneul@example.com"
    assert str(email.header.make_header(email.header.decode_header(received["Subject"]))) == WELCOME.subject
    assert "register/confirm?email=haneul%40example.com" in _text_of(received)


def test_without_smtp_mail_is_written_to_the_outbox_as_eml(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    mailer = mailer_from_settings(settings)
    assert isinstance(mailer, OutboxMailer)
    mailer.send(WELCOME)
    files = list(settings.outbox_dir.glob("*.eml"))
    assert len(files) == 1
    saved = email.message_from_bytes(files[0].read_bytes())
    assert saved["To"] == "haneul@example.com"
    assert "인증해 주세요" in _text_of(saved)


def test_a_mail_sent_again_after_a_crash_keeps_its_message_id_and_its_outbox_file(
    smtp_server: tuple[int, _Inbox], tmp_path: Path
) -> None:
    """The worker may die after sending and before recording the send; the repeat is the same mail."""
    keyed = replace(WELCOME, key="Storefront-42-0")
    outbox = mailer_from_settings(make_settings(tmp_path))
    outbox.send(keyed)
    outbox.send(keyed)
    files = list(make_settings(tmp_path).outbox_dir.glob("*.eml"))
    assert len(files) == 1, "the repeat overwrites the first file"
    assert email.message_from_bytes(files[0].read_bytes())["Message-ID"] == "<Storefront-42-0@unicornpro.local>"

    port, inbox = smtp_server
    smtp = mailer_from_settings(make_settings(tmp_path, SMTP_URL=f"smtp://127.0.0.1:{port}"))
    smtp.send(keyed)
    smtp.send(keyed)
    assert {message["Message-ID"] for message in inbox.messages} == {"<Storefront-42-0@unicornpro.local>"}, (
        "an SMTP repeat cannot be taken back; it carries the same Message-ID, so mail clients show it once"
    )
