"""Request budget (15 s) and the boundary that turns any crash into a reported 500 envelope."""

from __future__ import annotations

import asyncio
import logging

from fastapi import FastAPI, Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.errors import error_response
from domain.errors import ErrorCode
from integrations.observability import report_server_error

log = logging.getLogger(__name__)

API_PREFIX = "/web/unicornpro/v1"


class BudgetAndBoundary:
    """For API requests: answer -1002 when the budget runs out, and 500 (reported) on a crash.

    Pure ASGI rather than BaseHTTPMiddleware so that the budget really cancels the
    handler instead of waiting for it.
    """

    def __init__(self, app: ASGIApp, budget_seconds: float) -> None:
        self.app = app
        self.budget_seconds = budget_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(API_PREFIX):
            await self.app(scope, receive, send)
            return
        started = False

        async def watched_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            # asyncio.timeout cancels the request's own task: no second task per request, as wait_for made.
            async with asyncio.timeout(self.budget_seconds):
                await self.app(scope, receive, watched_send)
        except TimeoutError:
            log.warning("request over its %ss budget: %s %s", self.budget_seconds, scope["method"], scope["path"])
            if not started:
                response = error_response(Request(scope), ErrorCode.SERVER_ERROR_CONTACT_ADMIN, status=503)
                await response(scope, receive, send)
        except Exception as error:
            log.exception("unhandled error on %s %s", scope["method"], scope["path"])
            report_server_error(error)
            if not started:
                await error_response(Request(scope), ErrorCode.SERVER_ERROR)(scope, receive, send)


def install_middleware(app: FastAPI, budget_seconds: float) -> None:
    """Add the budget and the error boundary to API requests."""
    app.add_middleware(BudgetAndBoundary, budget_seconds=budget_seconds)
