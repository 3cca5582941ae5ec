"""Security headers on every answer, and cross-site requests kept off the cookie-authenticated calls.

The content security policy allows our own origin, the payment gateway's script and what its
window needs: the real PortOne SDK opens its payment forms in frames and posts forms to card
companies over https, so frames and form targets allow https (and the sandbox's origin when it is
the gateway). Images may come from https (event banners can name outside images). Nothing may
frame our pages. HSTS is sent only over https, where it means something.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from fastapi import Request
from fastapi.routing import APIRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.access import is_personal
from config.settings import Settings
from domain.errors import DomainError, ErrorCode

HSTS = "max-age=31536000; includeSubDomains"


def _origin(url: str) -> str:
    parts = urlsplit(url)
    host = parts.netloc.rpartition("@")[2]  # a Sentry DSN carries its public key as the user
    return f"{parts.scheme}://{host}" if parts.scheme and host else ""


def content_security_policy(settings: Settings) -> str:
    """The policy for our pages, given where the payment script, the chat widget and the browser's
    error reports come from and go to (the chat widget talks to its own origin and opens its frames there)."""
    gateway = _origin(settings.payment_script_url)
    chat = _origin(settings.chat_script_url)
    sentry = _origin(settings.web_sentry_dsn)
    directives = {
        "default-src": "'self'",
        "script-src": f"'self' {gateway} {chat}",
        "style-src": "'self' 'unsafe-inline'",
        "img-src": "'self' data: https:",
        "font-src": "'self' data:",
        "connect-src": f"'self' {chat} {sentry}",
        "frame-src": f"'self' https: {gateway} {chat}",
        "form-action": f"'self' https: {gateway}",
        "object-src": "'none'",
        "base-uri": "'self'",
        "frame-ancestors": "'none'",
    }
    return "; ".join(f"{name} {' '.join(sources.split())}" for name, sources in directives.items())


NO_STORE = (b"cache-control", b"no-store")


def _is_personal(scope: Scope) -> bool:
    """Is this an API operation whose answer caches must not keep (api/access.py: all but the shared answers)?"""
    route = scope.get("route")
    return isinstance(route, APIRoute) and is_personal(scope["method"], route.path)


class SecurityHeaders:
    """Pure ASGI: adds the headers to every response's start, whatever produced it, and ``Cache-Control: no-store``
    to every personal answer of the API (the router has named the operation by then)."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.headers = {
            "Content-Security-Policy": content_security_policy(settings),
            "X-Content-Type-Options": "nosniff",
            "X-Frame-Options": "DENY",
            "Referrer-Policy": "strict-origin-when-cross-origin",
            "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
        }
        # Encoded once: each answer only appends the ones its handler did not set.
        self._raw = [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in self.headers.items()]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        https = scope.get("scheme") == "https"

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                raw = list(message.get("headers", ()))
                present = {name.lower() for name, _ in raw}
                raw += [(name, value) for name, value in self._raw if name not in present]
                if https and b"strict-transport-security" not in present:
                    raw.append((b"strict-transport-security", HSTS.encode()))
                if _is_personal(scope):
                    raw = [(name, value) for name, value in raw if name.lower() != b"cache-control"] + [NO_STORE]
                message["headers"] = raw
            await send(message)

        await self.app(scope, receive, with_headers)


def refuse_cross_site(request: Request) -> None:
    """403 for a call that rides on our cookies from another site (CSRF).

    Browsers say where a request comes from in Sec-Fetch-Site; only our own pages (same-origin) or
    the user's own navigation (none) may use the refresh cookie. Without that header (an old
    browser), an Origin header naming another origin is refused.
    """
    site = request.headers.get("sec-fetch-site")
    if site is not None:
        if site not in ("same-origin", "none"):
            raise DomainError(ErrorCode.FORBIDDEN, f"cross-site request ({site})")
        return
    origin = request.headers.get("origin")
    if origin is not None and origin != _origin(str(request.base_url)):
        raise DomainError(ErrorCode.FORBIDDEN, "cross-site request (origin)")
