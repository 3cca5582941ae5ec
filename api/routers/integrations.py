"""What the browser needs for the outside services it talks to: the support desk, the chat widget and
error reporting (docs/support.md)."""

from __future__ import annotations

from fastapi import APIRouter, Response

from api.access import CallerDep
from api.schemas import CamelModel
from api.services import ServicesDep
from integrations.chat import chat_member_hash

router = APIRouter(prefix="/integrations", tags=["integrations"])


class CompanyBlock(CamelModel):
    """The seller as the footer shows it (COMPANY_* settings, what Korea's E-Commerce Act has a store show), in the
    language it is registered in (Korean); ``business_number_digits`` is what the Fair Trade Commission's page of the
    business is looked up by."""

    name: str
    representative: str
    address: str
    phone: str
    email: str
    business_number: str
    business_number_digits: str
    mail_order_number: str
    hosting_provider: str


class JapanSeller(CamelModel):
    """The seller as the 特定商取引法に基づく表記 page names it (JP_SELLER_* settings and COMPANY_EMAIL)."""

    name: str
    address: str
    phone: str
    email: str
    responsible: str


class AppDownloads(CamelModel):
    """Where each platform's app is downloaded (APP_DOWNLOAD_*_URL settings): its store page or installer."""

    android: str
    ios: str
    mac: str
    windows: str


class WebIntegrations(CamelModel):
    """Addresses and public keys for the web app; empty strings mean the service is off. Also the footer's company
    block, the seller of the Japanese disclosure page and where each app is downloaded, which the deployment sets."""

    desk_url: str
    chat_script_url: str
    chat_plugin_key: str
    sentry_dsn: str
    sentry_environment: str
    company: CompanyBlock
    japan_seller: JapanSeller
    downloads: AppDownloads


class ChatMember(CamelModel):
    """The logged-in member as the chat widget is booted: the account id and its HMAC-SHA256."""

    member_id: str
    member_hash: str


@router.get("/settings", response_model=WebIntegrations)
def web_integrations(services: ServicesDep, response: Response) -> WebIntegrations:
    """Desk address, chat script and plugin key, the browser's Sentry DSN, the footer's company block, the Japanese
    disclosure page's seller and the apps' download addresses (read once at start)."""
    settings = services.settings
    response.headers["Cache-Control"] = "public, max-age=300"
    return WebIntegrations(
        desk_url=settings.zendesk_url,
        chat_script_url=settings.chat_script_url,
        chat_plugin_key=settings.chat_plugin_key,
        sentry_dsn=settings.web_sentry_dsn,
        sentry_environment=settings.sentry_environment or settings.app_env,
        company=CompanyBlock(
            name=settings.company_name,
            representative=settings.company_representative,
            address=settings.company_address,
            phone=settings.company_phone,
            email=settings.company_email,
            business_number=settings.company_business_number,
            business_number_digits=settings.business_number_digits,
            mail_order_number=settings.company_mail_order_number,
            hosting_provider=settings.company_hosting_provider,
        ),
        japan_seller=JapanSeller(
            name=settings.jp_seller_name,
            address=settings.jp_seller_address,
            phone=settings.jp_seller_phone,
            email=settings.company_email,
            responsible=settings.jp_seller_responsible,
        ),
        downloads=AppDownloads(**settings.app_downloads),
    )


@router.get("/chat-member", response_model=ChatMember)
def chat_member(services: ServicesDep, caller: CallerDep) -> ChatMember:
    """The caller's member id and hash for booting the chat widget (anonymous visitors boot without)."""
    member_hash = chat_member_hash(services.settings.chat_member_secret, caller.account_id)
    return ChatMember(member_id=str(caller.account_id), member_hash=member_hash)
