"""Account mails are written in the account's language, with the link in text and HTML."""

from __future__ import annotations

import pytest

from domain.accounts.mails import render_confirmation_mail
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
