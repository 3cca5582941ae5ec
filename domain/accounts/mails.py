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


_CLAIM = {
    Language.KO: (
        "[{brand}] 비회원 구매 내역을 계정으로 가져오시겠어요?",
        "안녕하세요.\n\n이 주소로 구매한 {brand} 라이선스를 가진 계정에 "
        "비밀번호를 설정하려는 회원가입 요청이 있었습니다. "
        "본인이 요청했다면 아래 링크를 열고 가입할 때 정한 비밀번호를 입력해 주세요.\n\n{link}\n\n"
        "이 링크는 24시간 동안 유효합니다. 본인이 요청하지 않았다면 이 메일을 무시해 주세요. 아무것도 바뀌지 않습니다.",
    ),
    Language.EN: (
        "[{brand}] Add your guest purchases to your account",
        "Hello,\n\nSomeone signed up to {brand} with this address, which holds licences bought as a guest. "
        "If it was you, open the link below and enter the password you chose when signing up.\n\n{link}\n\n"
        "The link is valid for 24 hours. If it was not you, please ignore this mail: nothing changes.",
    ),
    Language.JA: (
        "[{brand}] ゲスト購入をアカウントに追加しますか",
        "こんにちは。\n\nゲストとして購入したライセンスがあるこのアドレスで、{brand}への登録がありました。"
        "ご本人の場合は、下のリンクを開き、登録時に決めたパスワードを入力してください。\n\n{link}\n\n"
        "このリンクの有効期限は24時間です。お心当たりがない場合は、このメールを破棄してください。何も変わりません。",
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


def render_claim_mail(*, to: str, language: Language, link: str) -> MailMessage:
    """The mail, sent to a guest's address, with the link that lets the registrant take the guest's purchases."""
    return _render(_CLAIM, to, language, link)


def render_password_reset_mail(*, to: str, language: Language, link: str) -> MailMessage:
    """The mail with the link that sets a new password."""
    return _render(_PASSWORD_RESET, to, language, link)


def render_email_change_mail(*, to: str, language: Language, link: str) -> MailMessage:
    """The mail, sent to the new address, with the link that completes an email change."""
    return _render(_EMAIL_CHANGE, to, language, link)
