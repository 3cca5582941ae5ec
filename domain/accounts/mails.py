"""The account mails, rendered in the account's language (ko, en, ja)."""

from __future__ import annotations

from html import escape

from domain.brand import BRAND
from domain.ports import MailMessage
from events.values import Language

_CONFIRMATION = {
    Language.KO: (
        "[{brand}] 이메일 인증을 완료해 주세요",
        "안녕하세요.\n\n{brand}에 가입해 주셔서 감사합니다. 아래 링크를 눌러 이메일 인증을 완료해 주세요.\n\n"
        "{link}\n\n이 링크는 24시간 동안 유효합니다. 본인이 가입하지 않았다면 이 메일을 무시해 주세요.",
    ),
    Language.EN: (
        "[{brand}] Please confirm your email address",
        "Hello,\n\nThank you for signing up to {brand}. Please open the link below to confirm your "
        "email address.\n\n{link}\n\nThe link is valid for 24 hours. If you did not sign up, "
        "please ignore this mail.",
    ),
    Language.JA: (
        "[{brand}] メールアドレスの認証を完了してください",
        "こんにちは。\n\n{brand}にご登録いただきありがとうございます。下のリンクを開いてメールアドレスの認証を"
        "完了してください。\n\n{link}\n\nこのリンクの有効期限は24時間です。ご登録に心当たりがない場合は、"
        "このメールを破棄してください。",
    ),
}

_PASSWORD_RESET = {
    Language.KO: (
        "[{brand}] 비밀번호 재설정 안내",
        "안녕하세요.\n\n아래 링크를 눌러 새 비밀번호를 설정해 주세요.\n\n{link}\n\n"
        "이 링크는 1시간 동안 유효합니다. 본인이 요청하지 않았다면 이 메일을 무시해 주세요.",
    ),
    Language.EN: (
        "[{brand}] Reset your password",
        "Hello,\n\nPlease open the link below to set a new password.\n\n{link}\n\n"
        "The link is valid for one hour. If you did not ask for this, please ignore this mail.",
    ),
    Language.JA: (
        "[{brand}] パスワード再設定のご案内",
        "こんにちは。\n\n下のリンクを開いて新しいパスワードを設定してください。\n\n{link}\n\n"
        "このリンクの有効期限は1時間です。お心当たりがない場合は、このメールを破棄してください。",
    ),
}

_EMAIL_CHANGE = {
    Language.KO: (
        "[{brand}] 이메일 변경 인증",
        "안녕하세요.\n\n{brand} 계정의 이메일을 이 주소로 변경하려면 아래 링크를 눌러 주세요.\n\n{link}\n\n"
        "이 링크는 24시간 동안 유효합니다. 본인이 요청하지 않았다면 이 메일을 무시해 주세요.",
    ),
    Language.EN: (
        "[{brand}] Confirm your new email address",
        "Hello,\n\nTo move your {brand} account to this address, please open the link below.\n\n{link}\n\n"
        "The link is valid for 24 hours. If you did not ask for this, please ignore this mail.",
    ),
    Language.JA: (
        "[{brand}] メールアドレス変更の認証",
        "こんにちは。\n\n{brand}アカウントのメールアドレスをこのアドレスに変更するには、下のリンクを開いてください。"
        "\n\n{link}\n\nこのリンクの有効期限は24時間です。お心当たりがない場合は、このメールを破棄してください。",
    ),
}


def _render(templates: dict[Language, tuple[str, str]], to: str, language: Language, link: str) -> MailMessage:
    brand = BRAND[language]
    subject, text = templates[language]
    body = text.format(brand=brand, link=link)
    paragraphs = "".join(
        f'<p><a href="{escape(link)}">{escape(link)}</a></p>'
        if part == link
        else f"<p>{escape(part).replace(chr(10), '<br>')}</p>"
        for part in body.split("\n\n")
    )
    return MailMessage(
        to=to,
        subject=subject.format(brand=brand),
        text=body,
        html=f'<!doctype html><html lang="{language.value}"><body>{paragraphs}</body></html>',
    )


def render_confirmation_mail(*, to: str, language: Language, link: str) -> MailMessage:
    """The mail that asks a new account holder to confirm the address."""
    return _render(_CONFIRMATION, to, language, link)


def render_password_reset_mail(*, to: str, language: Language, link: str) -> MailMessage:
    """The mail with the link that sets a new password."""
    return _render(_PASSWORD_RESET, to, language, link)


def render_email_change_mail(*, to: str, language: Language, link: str) -> MailMessage:
    """The mail, sent to the new address, with the link that completes an email change."""
    return _render(_EMAIL_CHANGE, to, language, link)
