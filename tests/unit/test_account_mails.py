"""Account mails are written in the account's language, with the link in text and HTML; the notices of a change
to how the account signs in say what happened, when, and what to do if it was not the owner."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from domain.accounts.mails import render_account_notice, render_confirmation_mail
from domain.accounts.notices import AccountNotice, NoticeKind
from events.values import Language

LINK = "http://127.0.0.1:8000/web/unicornpro/v1/accounts/confirm?t=abc.def&x=1"


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (Language.KO, "이메일 인증"),
        (Language.EN, "confirm your email"),
        (Language.JA, "メールアドレスの認証"),
    ],
)
def test_the_confirmation_mail_speaks_the_account_language(language: Language, words: str) -> None:
    mail = render_confirmation_mail(to="a@example.com", language=language, link=LINK)
    assert mail.to == "a@example.com"
    assert words in mail.subject
    assert LINK in mail.text
    assert 'href="http://127.0.0.1:8000/web/unicornpro/v1/accounts/confirm?t=abc.def&amp;x=1"' in mail.html
    assert f'lang="{language.value}"' in mail.html


SUPPORT = "https://support.unicornpro.example"
RESET = "http://127.0.0.1:8000/en/password/find"
AT = datetime(2026, 11, 26, 10, 31, tzinfo=UTC)  # 19:31 in Korea


@pytest.mark.parametrize(
    ("language", "subject", "said"),
    [
        (Language.KO, "이메일 주소가 변경되었습니다", "new@example.com(으)로 변경되었습니다"),
        (Language.EN, "email address was changed", "from this address to new@example.com"),
        (Language.JA, "メールアドレスが変更されました", "new@example.comに変更されました"),
    ],
)
def test_the_old_address_is_told_of_an_email_change_in_the_account_language(
    language: Language, subject: str, said: str
) -> None:
    notice = AccountNotice(NoticeKind.EMAIL_CHANGED, "old@example.com", language, AT, new_email="new@example.com")
    mail = render_account_notice(notice, support=SUPPORT, reset=RESET)
    assert (mail.to, subject in mail.subject, said in mail.text) == ("old@example.com", True, True)
    assert "2026-11-26 19:31 (KST)" in mail.text, "when it happened, in Korean time"
    assert SUPPORT in mail.text and f'href="{SUPPORT}"' in mail.html, "where to go if it was not them"


@pytest.mark.parametrize("kind", [NoticeKind.PASSWORD_CHANGED, NoticeKind.PASSWORD_RESET])
@pytest.mark.parametrize(
    ("language", "words"),
    [(Language.KO, "비밀번호"), (Language.EN, "password"), (Language.JA, "パスワード")],
)
def test_a_password_change_or_reset_is_told_to_the_account_address_with_what_to_do(
    kind: NoticeKind, language: Language, words: str
) -> None:
    mail = render_account_notice(AccountNotice(kind, "me@example.com", language, AT), support=SUPPORT, reset=RESET)
    assert mail.to == "me@example.com"
    assert words in mail.subject and "me@example.com" in mail.text and "2026-11-26 19:31 (KST)" in mail.text
    assert f'href="{RESET}"' in mail.html and f'href="{SUPPORT}"' in mail.html


def test_each_notice_reads_differently_for_a_change_and_a_reset() -> None:
    changed, reset = (
        render_account_notice(AccountNotice(kind, "me@example.com", Language.EN, AT), support=SUPPORT, reset=RESET)
        for kind in (NoticeKind.PASSWORD_CHANGED, NoticeKind.PASSWORD_RESET)
    )
    assert changed.subject != reset.subject
    assert "reset link" in reset.text and "reset link" not in changed.text
