"""Error reporting to Sentry, set up as spec section 9 says, and only when a DSN is given."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl, urlencode

import sentry_sdk
from sentry_sdk.scrubber import DEFAULT_DENYLIST, EventScrubber
from sentry_sdk.types import Event

from config.settings import Settings

TRACES_SAMPLE_RATE = 0.1
MAX_BREADCRUMBS = 30
IGNORED_TRANSACTION_NAMES = frozenset({"404"})

# Field names (any depth) whose values never leave the process: credentials,
# tokens, and every card detail the billing-key form carries.
SENSITIVE_FIELDS = [
    "pw",
    "newpw",
    "currentpw",
    "pwd",
    "pwd_2digit",
    "cardnumber",
    "card_number",
    "cardpassword",
    "card_password",
    "expiry",
    "validity",
    "birth",
    "rt",
    "refresh_token",
    "refreshtoken",
    "accesstoken",
    "access_token",
    "zendeskjwt",
    "imp_secret",
    "refund_account",
    "refund_holder",
    "t",
]


_SENSITIVE = {name.lower() for name in DEFAULT_DENYLIST + SENSITIVE_FIELDS}


def init_sentry(settings: Settings) -> bool:
    """Start the SDK when SENTRY_DSN is set; returns whether reporting is on."""
    if not settings.sentry_dsn:
        return False
    sentry_sdk.init(
        dsn=settings.sentry_dsn,
        environment=settings.sentry_environment or settings.app_env,
        traces_sample_rate=TRACES_SAMPLE_RATE,
        max_breadcrumbs=MAX_BREADCRUMBS,
        send_default_pii=False,
        max_request_body_size="never",
        include_local_variables=False,  # frame locals can hold request bodies with card data
        event_scrubber=EventScrubber(denylist=DEFAULT_DENYLIST + SENSITIVE_FIELDS, recursive=True),
        before_send=report_http_errors_as_warnings,
        before_send_transaction=drop_ignored_transaction,
    )
    return True


def drop_ignored_transaction(event: Event, hint: dict[str, Any]) -> Event | None:
    """Transactions named 404 (and those that answered 404) are not worth tracing."""
    if event.get("transaction") in IGNORED_TRANSACTION_NAMES:
        return None
    contexts: dict[str, Any] = dict(event.get("contexts") or {})
    status = (contexts.get("trace") or {}).get("data", {}).get("http.response.status_code")
    if 404 in (status, (contexts.get("response") or {}).get("status_code")):
        return None
    return scrub_query_string(event)


def report_http_errors_as_warnings(event: Event, hint: dict[str, Any]) -> Event:
    """An error raised while answering a request became a 500: report it as a warning.

    The SDK's web integrations may capture the exception before our boundary does,
    so the level is set here, where every event passes.
    """
    if "request" in event and "exception" in event:
        event["level"] = "warning"
    return scrub_query_string(event)


def scrub_query_string(event: Event) -> Event:
    """Query parameters such as ``?t=`` carry tokens; the SDK's scrubber leaves them be."""
    request: Any = event.get("request")
    if isinstance(request, dict) and isinstance(request.get("query_string"), str):
        pairs: list[tuple[str, str]] = parse_qsl(request["query_string"], keep_blank_values=True)
        request["query_string"] = urlencode(
            [(key, "[Filtered]" if key.lower() in _SENSITIVE else value) for key, value in pairs]
        )
    return event


def report_server_error(error: BaseException) -> None:
    """A 500 is reported as a warning (spec section 7); a no-op when reporting is off."""
    with sentry_sdk.new_scope() as scope:
        scope.set_level("warning")
        sentry_sdk.capture_exception(error)
