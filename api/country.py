"""Which country a visitor buys from: decided by the server, never by the page's language.

The configured default (``DEFAULT_COUNTRY``, KR: the shell forces KR, spec section 2), unless
``COUNTRY_HEADER`` names a header that a trusted proxy in front of us sets from the client's address
(Cloudflare's ``CF-IPCountry``, say) and the request carries a country code in it. Without that setting
the header is ignored, since anyone can send it.
"""

from __future__ import annotations

from fastapi import Request

from config.settings import Settings

# What Cloudflare sends when it cannot tell (XX) or for Tor (T1).
UNKNOWN_COUNTRIES = frozenset({"XX", "T1"})
# How request bodies that still carry a countryCode describe it.
COUNTRY_IGNORED = "ignored: the server decides the buyer's country (GET /payments/settings tells it)"


def visitor_country(request: Request, settings: Settings) -> str:
    """The two-letter country whose price (with the catalogue's fallback) this visitor pays."""
    if settings.country_header:
        told = request.headers.get(settings.country_header, "").strip().upper()
        if len(told) == 2 and told.isascii() and told.isalpha() and told not in UNKNOWN_COUNTRIES:
            return told
    return settings.default_country
