"""The account mails, rendered in the account's language (ko, en, ja)."""

from __future__ import annotations

from html import escape

from domain.accounts.notices import AccountNotice, NoticeKind
from domain.brand import BRAND
from domain.business_time import BUSINESS_TIME
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


_EMAIL_CHANGED = {
    Language.KO: (
        "[{brand}] 계정의 이메일 주소가 변경되었습니다",
        "안녕하세요.\n\n{when}에 {brand} 계정의 이메일 주소가 이 주소에서 {new_email}(으)로 변경되었습니다. "
        "이제 이 주소로는 로그인할 수 없으며, 로그인되어 있던 모든 기기에서 로그아웃되었습니다.\n\n"
        "본인이 변경했다면 더 하실 일은 없습니다. 본인이 변경하지 않았다면 다른 사람이 비밀번호를 알고 있을 수 "
        "있습니다. 아래 고객센터에 바로 알려 주시면 계정을 되찾을 수 있도록 도와드리겠습니다.\n\n{support}",
    ),
    Language.EN: (
        "[{brand}] Your account's email address was changed",
        "Hello,\n\nOn {when} the email address of your {brand} account was changed from this address to "
        "{new_email}. This address no longer signs in, and every device that was signed in has been signed out."
        "\n\nIf you made this change, there is nothing more to do. If you did not, someone else may know your "
        "password: tell our support desk below at once, and we will help you get the account back.\n\n{support}",
    ),
    Language.JA: (
        "[{brand}] アカウントのメールアドレスが変更されました",
        "こんにちは。\n\n{when}に、{brand}アカウントのメールアドレスがこのアドレスから{new_email}に変更されました。"
        "このアドレスではログインできなくなり、ログインしていたすべての端末からログアウトしました。\n\n"
        "ご自身で変更された場合は、これ以上の操作は必要ありません。お心当たりがない場合は、他の人がパスワードを"
        "知っている可能性があります。下記のサポートにすぐご連絡ください。アカウントを取り戻すお手伝いをいたします。"
        "\n\n{support}",
    ),
}

_PASSWORD_CHANGED = {
    Language.KO: (
        "[{brand}] 비밀번호가 변경되었습니다",
        "안녕하세요.\n\n{when}에 {brand} 계정({email})의 비밀번호가 변경되었습니다. "
        "로그인되어 있던 모든 기기에서 로그아웃되었습니다.\n\n"
        "본인이 변경했다면 더 하실 일은 없습니다. 본인이 변경하지 않았다면 아래 링크에서 바로 비밀번호를 다시 "
        "설정하고 고객센터에 알려 주세요.\n\n{reset}\n\n{support}",
    ),
    Language.EN: (
        "[{brand}] Your password was changed",
        "Hello,\n\nOn {when} the password of your {brand} account ({email}) was changed. Every device that was "
        "signed in has been signed out.\n\nIf you made this change, there is nothing more to do. If you did not, "
        "set a new password at once with the link below and tell our support desk.\n\n{reset}\n\n{support}",
    ),
    Language.JA: (
        "[{brand}] パスワードが変更されました",
        "こんにちは。\n\n{when}に、{brand}アカウント（{email}）のパスワードが変更されました。"
        "ログインしていたすべての端末からログアウトしました。\n\n"
        "ご自身で変更された場合は、これ以上の操作は必要ありません。お心当たりがない場合は、すぐに下のリンクから"
        "パスワードを再設定し、サポートにご連絡ください。\n\n{reset}\n\n{support}",
    ),
}

_PASSWORD_WAS_RESET = {
    Language.KO: (
        "[{brand}] 비밀번호가 재설정되었습니다",
        "안녕하세요.\n\n{when}에 비밀번호 재설정 링크로 {brand} 계정({email})의 비밀번호가 새로 설정되었습니다. "
        "로그인되어 있던 모든 기기에서 로그아웃되었습니다.\n\n"
        "본인이 재설정했다면 더 하실 일은 없습니다. 본인이 재설정하지 않았다면 이 메일함에 다른 사람이 접근했을 수 "
        "있습니다. 메일 계정의 비밀번호를 먼저 바꾸고, 아래 링크에서 비밀번호를 다시 설정한 뒤 고객센터에 알려 "
        "주세요.\n\n{reset}\n\n{support}",
    ),
    Language.EN: (
        "[{brand}] Your password was reset",
        "Hello,\n\nOn {when} a new password was set for your {brand} account ({email}) through a password reset "
        "link. Every device that was signed in has been signed out.\n\nIf you did this, there is nothing more to "
        "do. If you did not, someone may be reading this mailbox: change your mail account's password first, then "
        "set a new password with the link below and tell our support desk.\n\n{reset}\n\n{support}",
    ),
    Language.JA: (
        "[{brand}] パスワードが再設定されました",
        "こんにちは。\n\n{when}に、パスワード再設定リンクから{brand}アカウント（{email}）の新しいパスワードが"
        "設定されました。ログインしていたすべての端末からログアウトしました。\n\n"
        "ご自身で再設定された場合は、これ以上の操作は必要ありません。お心当たりがない場合は、このメールボックスに"
        "他の人がアクセスしている可能性があります。まずメールアカウントのパスワードを変更し、下のリンクから"
        "パスワードを再設定してから、サポートにご連絡ください。\n\n{reset}\n\n{support}",
    ),
}

_NOTICES = {
    NoticeKind.EMAIL_CHANGED: _EMAIL_CHANGED,
    NoticeKind.PASSWORD_CHANGED: _PASSWORD_CHANGED,
    NoticeKind.PASSWORD_RESET: _PASSWORD_WAS_RESET,
}


def _render(
    templates: dict[Language, tuple[str, str]], to: str, language: Language, link: str, **values: str
) -> MailMessage:
    """The mail in ``language``: a paragraph that is a link (``link``, or a value that is an address) is a link in
    the HTML part too."""
    brand = BRAND[language]
    subject, text = templates[language]
    body = text.format(brand=brand, link=link, **values)
    links = {each for each in (link, *values.values()) if each.startswith(("http://", "https://"))}
    paragraphs = "".join(
        f'<p><a href="{escape(part)}">{escape(part)}</a></p>'
        if part in links
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


def render_account_notice(notice: AccountNotice, *, support: str, reset: str) -> MailMessage:
    """The notice of a change to how the account signs in: what happened, when (Korean time), and where to go if it
    was not the owner (the support desk; for a password, the page that mails a reset link)."""
    when = notice.at.astimezone(BUSINESS_TIME).strftime("%Y-%m-%d %H:%M (KST)")
    values = {"when": when, "email": notice.to, "new_email": notice.new_email or "", "support": support, "reset": reset}
    return _render(_NOTICES[notice.kind], notice.to, notice.language, "", **values)
