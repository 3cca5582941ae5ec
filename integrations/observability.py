"""Error reporting to Sentry, set up as spec section 9 says, and only when a DSN is given."""

from __future__ import annotations

from typing import Any

import sentry_sdk
from sentry_sdk.scrubber import DEFAULT_DENYLIST, EventScrubber

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
    "t",
]


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
        event_scrubber=EventScrubber(denylist=DEFAULT_DENYLIST + SENSITIVE_FIELDS, recursive=True),
        before_send_transaction=drop_ignored_transaction,
    )
    return True


def drop_ignored_transaction(event: dict[str, Any], hint: dict[str, Any]) -> dict[str, Any] | None:
    """Transactions named 404 (and those that answered 404) are not worth tracing."""
    if event.get("transaction") in IGNORED_TRANSACTION_NAMES:
        return None
    trace = event.get("contexts", {}).get("trace", {})
    status = trace.get("data", {}).get("http.response.status_code")
    if status == 404 or event.get("contexts", {}).get("response", {}).get("status_code") == 404:
        return None
    return event


def report_server_error(error: BaseException) -> None:
    """A 500 is reported as a warning (spec section 7); a no-op when reporting is off."""
    with sentry_sdk.new_scope() as scope:
        scope.set_level("warning")
        sentry_sdk.capture_exception(error)
