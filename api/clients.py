"""Who a request comes from: the peer, or the client a trusted proxy names, and how rate limits count it.

Only a peer inside ``TRUSTED_PROXIES`` (networks, comma-separated; the local host by default) may name the
client in ``X-Forwarded-For`` and the scheme in ``X-Forwarded-Proto``; the client is then the rightmost
address of the chain that is not itself a trusted proxy, so what the client wrote in front of it is ignored.
From any other peer both headers are ignored: the peer is the client. This is uvicorn's own middleware, run
inside the app (``python -m api`` turns uvicorn's off) so that tests and every server see the same rule.
"""

from __future__ import annotations

import ipaddress

from fastapi import FastAPI, Request
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from config.settings import Settings

# An IPv6 customer holds a whole /64 (the smallest prefix a provider hands out): counted per address, one
# customer would have 2^64 budgets.
IPV6_PREFIX = 64


def install_proxy_trust(app: FastAPI, settings: Settings) -> None:
    """Let the trusted proxies name the client and the scheme (add it last: it must run first)."""
    app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=list(settings.trusted_proxy_networks))


def client_key(request: Request) -> str:
    """The client as rate limits count it: its IPv4 address, or its IPv6 /64."""
    host = request.client.host if request.client else ""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host or "unknown"  # not an address (a test client's name, a Unix socket): itself
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, IPV6_PREFIX), strict=False))
    return str(address)
