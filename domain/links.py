"""Every link we mail or hand out, built in one place from the site's public address (APP_BASE_URL).

A link opens either a web page, ``/{lang}/...`` (each one a route of ``web/src/routing/paths.ts``;
``tests/unit/test_site_links.py`` holds them to it), or an operation of the API under its base path.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote, urlencode

from events.values import Language

API_BASE_PATH = "/web/unicornpro/v1"
CONFIRMATION_PATH = f"{API_BASE_PATH}/accounts/confirm"
REPORT_IMAGES_PATH = f"{API_BASE_PATH}/reports/images"


@dataclass(frozen=True)
class SiteLinks:
    """The site's links under ``base_url`` (the public https address in production)."""

    base_url: str

    def _at(self, path: str, query: str = "") -> str:
        return f"{self.base_url.rstrip('/')}{path}{'?' + query if query else ''}"

    def account_confirmation(self, token: str) -> str:
        """The API operation that confirms an address (it answers with a redirect to the web)."""
        return self._at(CONFIRMATION_PATH, f"t={token}")

    def claim(self, language: Language, token: str) -> str:
        """The page where a claim's link is opened with the password chosen when registering."""
        return self._at(f"/{language.value}/register/claim", f"t={token}")

    def password_reset(self, language: Language, token: str) -> str:
        """The page where a new password is entered (it calls /accounts/password-change-check)."""
        return self._at(f"/{language.value}/password/reset", f"t={token}")

    def password_find(self, language: Language) -> str:
        """The page that mails a password-reset link."""
        return self._at(f"/{language.value}/password/find")

    def email_change(self, token: str) -> str:
        """The page that completes an address change (no language: the web opens it in the reader's)."""
        return self._at("/account/email-change/confirm", f"t={token}")

    def register(self, language: Language, *, licence_key: str, email: str, token: str) -> str:
        """The registration page, for a guest buyer to take their licence into an account of their own."""
        return self._at(
            f"/{language.value}/register", urlencode({"userLicenseKey": licence_key, "email": email, "t": token})
        )

    def purchase_record(self, language: Language, merchant_uid: str) -> str:
        """The purchase-history page of one payment, where its receipt and refund notes are downloaded (PDF)."""
        return self._at(f"/{language.value}/purchase-history/{quote(merchant_uid, safe='')}")

    def report_image(self, key: str, *, expires: int, signature: str) -> str:
        """The API operation that serves a report's image to whoever holds this signed link."""
        return self._at(f"{REPORT_IMAGES_PATH}/{quote(key)}", urlencode({"expires": expires, "signature": signature}))

    def stop_auto_renewal(self, language: Language, user_licence_id: object) -> str:
        """The licence page with the dialog that stops auto-renewal open (a renewal reminder's link)."""
        return self._licence(language, user_licence_id, "stop")

    def pay_past_due(self, language: Language, user_licence_id: object) -> str:
        """The licence page with the card change open, which pays the past-due period at once (a failed renewal's
        link; the page's pay-now button is beside it)."""
        return self._licence(language, user_licence_id, "pay")

    def resume_auto_renewal(self, language: Language, user_licence_id: object) -> str:
        """The licence page, whose button turns auto-renewal back on (the cancellation mail's link)."""
        return self._licence(language, user_licence_id, "resume")

    def price_rise(self, language: Language, user_licence_id: object) -> str:
        """The licence page, whose notice asks for consent to a higher price with its agree and stop buttons (a
        price-rise mail's link: following it agrees to nothing)."""
        return self._licence(language, user_licence_id, "price")

    def _licence(self, language: Language, user_licence_id: object, intent: str) -> str:
        return self._at(f"/{language.value}/license/{quote(str(user_licence_id))}", urlencode({"subscription": intent}))
