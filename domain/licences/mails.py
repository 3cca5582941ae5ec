"""The licence-key mail support sends again on a customer's request: the licence, its key and how long it runs,
in the holder's language."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError

from domain.accounts.account import Account
from domain.brand import BRAND
from domain.business_time import BUSINESS_TIME
from domain.catalogue.licences import LIFETIME_DAYS
from domain.licences.licence import UserLicence
from domain.ports import MailMessage
from domain.store import Storefront
from events.values import Language


@dataclass(frozen=True)
class LicenceKeyFacts:
    """What the licence-key mail says."""

    to: str
    language: Language
    licence_name: str
    licence_key: str
    expires_at: datetime | None
    lifetime: bool


_KEY = {
    Language.KO: (
        "[{brand}] 라이선스 키 안내",
        "요청하신 {name} 라이선스 키를 다시 보내 드립니다.\n\n라이선스 키: {key}\n이용 기간: {validity}\n\n"
        "앱에서 이 키를 입력하면 라이선스를 사용할 수 있습니다.\n",
    ),
    Language.EN: (
        "[{brand}] Your licence key",
        "As you asked, here is your {name} licence key again.\n\nLicence key: {key}\nValid: {validity}\n\n"
        "Enter this key in the app to use your licence.\n",
    ),
    Language.JA: (
        "[{brand}] ライセンスキーのご案内",
        "ご依頼いただいた{name}のライセンスキーを再送いたします。\n\nライセンスキー: {key}\nご利用期間: {validity}\n\n"
        "アプリでこのキーを入力するとライセンスをご利用いただけます。\n",
    ),
}
_LIFETIME = {Language.KO: "평생 (기한 없음)", Language.EN: "lifetime (no end date)", Language.JA: "買い切り (期限なし)"}
_UNTIL = {Language.KO: "{expires}까지", Language.EN: "until {expires}", Language.JA: "{expires}まで"}


def _when(moment: datetime | None) -> str:
    return moment.astimezone(BUSINESS_TIME).strftime("%Y-%m-%d %H:%M (KST)") if moment else "-"


def render_licence_key(facts: LicenceKeyFacts) -> MailMessage:
    """The licence's key and validity, again."""
    subject, body = _KEY[facts.language]
    validity = (
        _LIFETIME[facts.language] if facts.lifetime else _UNTIL[facts.language].format(expires=_when(facts.expires_at))
    )
    fields = {"brand": BRAND[facts.language], "name": facts.licence_name, "key": facts.licence_key}
    return MailMessage(to=facts.to, subject=subject.format(**fields), text=body.format(**fields, validity=validity))


def licence_key_facts(store: Storefront, user_licence_id: UUID) -> LicenceKeyFacts | None:
    """What the mail says of a licence, read from the log (None when the licence or its holder is gone)."""
    try:
        licence: object = store.repository.get(user_licence_id)
        if not isinstance(licence, UserLicence):
            return None
        account: object = store.repository.get(licence.account_id)
    except AggregateNotFoundError:
        return None
    if not isinstance(account, Account) or account.deleted or not account.email:
        return None
    return LicenceKeyFacts(
        to=account.email,
        language=account.language,
        licence_name=licence.name,
        licence_key=licence.licence_key,
        expires_at=licence.expires_at,
        lifetime=licence.life == LIFETIME_DAYS,
    )
