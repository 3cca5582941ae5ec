"""``python -m config.docs``: write docs/configuration.md, the reference of every setting, from config/settings.py.

Names, defaults and production rules come from the settings themselves; what each one does is written here, one
sentence or two a setting (tests/unit/test_configuration_docs.py fails when a setting has none, when a description
names no setting, or when the committed file differs from what this writes).
"""

from __future__ import annotations

import re
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

from config.settings import PROJECT_ROOT, Settings

TARGET = PROJECT_ROOT / "docs" / "configuration.md"
PROCFILE = PROJECT_ROOT / "Procfile"

DESCRIPTIONS: dict[str, str] = {
    "APP_ENV": "`production` turns on the production rules below; `test` and `development` are the same otherwise.",
    "APP_VAR_DIR": "Where the embedded default keeps its SQLite files, its broker, the outbox, uploaded objects, "
    "checkpoint copies and beat's schedule. In production: a mounted volume (an absolute path outside the code), "
    "unless `S3_BUCKET` is set.",
    "DATABASE_URL": "PostgreSQL for the event log and the views (`postgresql://user:pass@host:5432/db`, with "
    "`?pool_size=&max_overflow=` per process, default 2 and 13); empty: SQLite files under `APP_VAR_DIR`.",
    "REDIS_URL": "Redis as the Celery broker and the rate limits' store (the apps' validations are counted in each API "
    "process); empty: the embedded broker (`APP_VAR_DIR/broker/messages.sqlite3`) and limits in memory.",
    "APP_BASE_URL": "The site's public address, in every mailed link. Production: https, not this machine.",
    "WEB_DIST_DIR": "The built web app the API serves (`npm run build` writes it).",
    "SENTRY_DSN": "Where the Python processes report errors (none when empty).",
    "SENTRY_ENVIRONMENT": "The environment name errors are reported under (default: `APP_ENV`).",
    "SMTP_URL": "The mail server: `smtp://`, `smtp+starttls://` or `smtps://user:pass@host:port`; empty: mail is "
    "written as `.eml` files to `APP_VAR_DIR/outbox/`.",
    "MAIL_FROM": "The sender of every mail.",
    "REQUEST_BUDGET_SECONDS": "How long an API request may take before it is answered 503 (-1002) and cancelled.",
    "VIEW_WAIT_SECONDS": "How long the API waits for the views to show a caller's own write (read-your-writes).",
    "PROJECTOR_POLL_SECONDS": "How often the projector and the reactor look at the log besides being woken.",
    "AUTH_SECRET": "Signs access tokens and mailed links. Production: required, 32 characters or more; elsewhere, "
    "left empty, each `APP_VAR_DIR` generates its own under `secrets/` (readable by its owner only).",
    "ZENDESK_SECRET": "Signs the support desk's sign-on tokens. Production: required, 32 characters or more; "
    "elsewhere generated like `AUTH_SECRET`.",
    "LICENCE_SIGNING_SECRET": "Signs the apps' offline licence tokens (Ed25519, the key derived from it by SHA-256; "
    "docs/app-licensing.md). Production: required, 32 characters or more; elsewhere generated like `AUTH_SECRET`.",
    "LICENCE_PREVIOUS_PUBLIC_KEYS": "Public keys of licence-signing keys rotated out (base64url raw Ed25519 keys, "
    "comma-separated): still published in the JWKS so the tokens they signed verify until they expire.",
    "LICENCE_OFFLINE_GRACE_DAYS": "How long an app may run offline on a licence token (its `exp`), 1 to 90 days.",
    "ZENDESK_URL": "The support desk customers are sent to.",
    "CHAT_SCRIPT_URL": "The chat widget's script; empty: no chat widget.",
    "CHAT_PLUGIN_KEY": "The chat widget's plugin key.",
    "CHAT_MEMBER_SECRET": "Hashes a member's id for the chat widget. Production, with the widget on: 32 characters "
    "or more; elsewhere generated like `AUTH_SECRET`.",
    "TRUSTED_PROXIES": "The networks the API's proxies connect from (comma-separated addresses or networks; empty "
    "trusts none): only they may name the client and the scheme (`X-Forwarded-For`, `X-Forwarded-Proto`).",
    "WEB_SENTRY_DSN": "Where the browser reports errors (none when empty).",
    "BROKER_VISIBILITY_TIMEOUT": "Seconds before a task a worker took and never acknowledged (the worker died) is "
    "delivered again, on Redis and on the embedded broker.",
    "MAIL_RESEND_SECONDS": "How often the reactor looks for mail tasks that never ran and starts them again.",
    "RENEWAL_BATCH_SIZE": "How many due subscriptions one renewal task takes (one read, one save).",
    "RENEWAL_CHARGES_AT_ONCE": "How many renewal charges a worker process makes side by side, whatever its pool.",
    "RETENTION_COUPON_FACTOR": "The one retention offer shown when auto-renewal is stopped: this fraction off the "
    "next period's charge, as a code of the year's retention coupon group (0: no offer; docs/subscriptions.md).",
    "TEST_CLOCK": "The shared test clock a test harness can move forward. Never in production.",
    "TEST_ADMIN_TOKEN": "Mounts the test harness and the spec's admin API behind this credential. Never in production.",
    "TEST_ADMIN_EMAIL": "The test harness admin's address (with `TEST_ADMIN_TOKEN`).",
    "PORTONE_BASE_URL": "PortOne's REST API (`https://api.iamport.kr`); the default is the local sandbox. "
    "Production: https, not this machine.",
    "PORTONE_IMP_KEY": "PortOne REST API key.",
    "PORTONE_IMP_SECRET": "PortOne REST API secret.",
    "PORTONE_IMP_CODE": "The merchant code the browser's PortOne script is given.",
    "PORTONE_SCRIPT_URL": "Where the browser loads PortOne's script (default: the sandbox's stand-in).",
    "PORTONE_SANDBOX_IN_PRODUCTION": "`deployment-test` lets a production configuration use the sandbox: only "
    "the deployment test sets it; no deployment file may.",
    "DEFAULT_COUNTRY": "The buyer's country when no trusted header says otherwise (ISO 3166 code).",
    "COUNTRY_HEADER": "The header a trusted proxy puts the buyer's country in (for example `CF-IPCountry`).",
    "PORTONE_TIMEOUT_SECONDS": "The longest wait for any PortOne call.",
    "STAFF_IDLE_MINUTES": "A staff session unused this long ends (the back office's own cookie).",
    "STAFF_SESSION_HOURS": "A staff session ends this long after its sign-in, however busy.",
    "STAFF_STEP_UP_MINUTES": "How recent a staff member's passkey touch or one-time code must be before an action "
    "that moves money (older: they prove themselves again).",
    "STAFF_REFUND_APPROVAL_LIMITS": "A staff refund that would take what a payment was refunded in all above this "
    "amount (minor units, per currency: `KRW=50000,USD=5000`) waits for a second member's approval; a currency not "
    "named always does. Keep each below the dearest plan in its currency.",
    "MONEY_BACK_AUTO_LIMITS": "A customer's money-back request within policy and up to this amount (minor units, per "
    "currency) is refunded at once; above it, or in a currency not named, it waits for support.",
    "AUDIT_SIGNING_KEY": "Base64 of the 32-byte Ed25519 seed that signs the log's checkpoints. Production: "
    "required; elsewhere a development key is generated under `APP_VAR_DIR/audit/`.",
    "AUDIT_LOG_ORIGIN": "The checkpoints' origin line (and the key's name).",
    "AUDIT_CHECKPOINT_DIR": "Where checkpoint copies are written (default `APP_VAR_DIR/checkpoints`; with "
    "`S3_BUCKET`, copies go to the bucket under `checkpoints/` instead).",
    "AUDIT_CHECKPOINT_MAIL_TO": "Comma-separated addresses each new checkpoint is mailed to.",
    "AUDIT_CHECKPOINT_MINUTES": "How often beat signs a checkpoint.",
    "AUDIT_PREVIOUS_VERIFIER_KEYS": "Verifier keys of signing keys rotated out (comma-separated, as `python -m "
    "eventlog.audit key` printed them): `python -m eventlog.audit verify` also trusts checkpoints they signed, so "
    "checkpoints signed before a rotation still verify.",
    "S3_BUCKET": "Keep uploaded objects (and checkpoint copies) in this S3 bucket instead of `APP_VAR_DIR`.",
    "S3_ENDPOINT_URL": "An S3-compatible server's address (empty: AWS).",
    "S3_REGION": "The S3 bucket's region (empty: boto3's own default).",
    "S3_ACCESS_KEY_ID": "S3 credentials (empty: boto3's own chain, such as an instance role).",
    "S3_SECRET_ACCESS_KEY": "S3 credentials (with `S3_ACCESS_KEY_ID`).",
    "COMPANY_NAME": "The seller's registered name in the footer's company block. Production: required.",
    "COMPANY_REPRESENTATIVE": "The seller's representative in the footer's company block. Production: required.",
    "COMPANY_ADDRESS": "The seller's registered address in the footer's company block. Production: required.",
    "COMPANY_BUSINESS_NUMBER": "The business registration number (사업자등록번호) in the footer's company block. "
    "Production: required.",
    "COMPANY_MAIL_ORDER_NUMBER": "The mail-order business registration number (통신판매업 신고번호) in the footer's "
    "company block. Production: required.",
    "COMPANY_PHONE": "The seller's customer phone number in the footer's company block. Production: required.",
    "COMPANY_EMAIL": "The seller's customer e-mail address in the footer's company block and on the Japanese "
    "disclosure page. Production: required.",
    "COMPANY_HOSTING_PROVIDER": "Who hosts the store (호스팅서비스 제공자), in the footer's company block. Production: "
    "required.",
    "JP_SELLER_NAME": "The seller (販売業者) as the Japanese disclosure page `/ja/legal/tokushoho` names it "
    "(docs/legal.md). Production: required.",
    "JP_SELLER_ADDRESS": "The seller's address (所在地) on the Japanese disclosure page. Production: required.",
    "JP_SELLER_PHONE": "The seller's phone number (電話番号) on the Japanese disclosure page. Production: required.",
    "JP_SELLER_RESPONSIBLE": "The person responsible (運営統括責任者) on the Japanese disclosure page. Production: "
    "required.",
    "APP_DOWNLOAD_ANDROID_URL": "Where the Android app is downloaded (its Google Play page): the licence page, the "
    "purchase-complete page and the account menu link there. The default searches the store; set the app's own page.",
    "APP_DOWNLOAD_IOS_URL": "Where the iOS app is downloaded (its App Store page), shown as "
    "`APP_DOWNLOAD_ANDROID_URL`.",
    "APP_DOWNLOAD_MAC_URL": "Where the Mac app is downloaded (its Mac App Store page or installer), shown as "
    "`APP_DOWNLOAD_ANDROID_URL`.",
    "APP_DOWNLOAD_WINDOWS_URL": "Where the Windows app is downloaded (its Microsoft Store page or installer), shown as "
    "`APP_DOWNLOAD_ANDROID_URL`.",
    "OPEN_BETA_ENDS_AT": "When joining the open beta closes (ISO 8601 with its offset).",
    "RECEIPT_FONT_KO": "The TrueType font receipts and refund notes (PDF) are set in for Korean and Latin text, "
    "embedded as a subset; `make install` installs Debian's fonts-nanum (docs/papers.md).",
    "RECEIPT_FONT_JA": "The TrueType font receipts and refund notes (PDF) are set in for Japanese text, embedded "
    "as a subset; `make install` installs Debian's fonts-ipaexfont-gothic (docs/papers.md).",
    "STORE_STANDIN_PORT": "The stores' local stand-ins' port (`python -m integrations.stores`, never in production); "
    "outside production the stores' adapters talk to them unless their addresses are set (docs/app-stores.md).",
    "APP_STORE_BUNDLE_ID": "The iOS and Mac apps' bundle id: a signed transaction or notification of another app is "
    "refused (-350).",
    "APP_STORE_APP_APPLE_ID": "The app's Apple id, which Apple's notifications carry: required with "
    "`APP_STORE_ENVIRONMENT=Production`.",
    "APP_STORE_ENVIRONMENT": "`Sandbox` or `Production`: what Apple signed for another environment is refused.",
    "APP_STORE_ROOT_CERTIFICATES": "Paths of the roots signed App Store data must chain to (comma-separated, PEM or "
    "DER: Apple Root CA - G3 from Apple's certificate authority page). Empty outside production: the stand-in's "
    "generated test root; empty in production: every App Store proof is refused.",
    "APP_STORE_ONLINE_CHECKS": "Ask Apple's OCSP responders whether the signing certificates were revoked (turn on in "
    "production; the stand-in's chain has no responder).",
    "APP_STORE_API_URL": "The App Store Server API (reconciliation). Empty: Apple's for `APP_STORE_ENVIRONMENT` in "
    "production, the stand-in's elsewhere. Production: https only.",
    "APP_STORE_API_KEY_ID": "The App Store Server API key's id (App Store Connect, Users and Access, Integrations).",
    "APP_STORE_API_ISSUER_ID": "The App Store Server API key's issuer id.",
    "APP_STORE_API_PRIVATE_KEY": "The App Store Server API key (the .p8 file's PEM). Empty outside production: the "
    "stand-in's generated key; empty in production: reconciliation cannot ask Apple.",
    "APP_STORE_NOTIFICATION_MAX_AGE_HOURS": "How long after Apple signed a notification it is still taken (Apple "
    "retries for three days); an older one is a replay and refused (-350).",
    "APP_STORE_PRODUCTS": "Which catalogue licence each App Store product is (`productId=licenceId,...`); empty: "
    "`unicornpro.pro.ios.<monthly|annual|lifetime><1|3>` for the iOS plans and `.mac.` for the Mac plans.",
    "APP_STORE_COMMISSION": "The share of the price Apple keeps (0 to 1): recorded with each App Store payment, so "
    "finance's store ledger counts its revenue net of it.",
    "GOOGLE_PLAY_PACKAGE_NAME": "The Android app's package name: another app's notification is refused.",
    "GOOGLE_PLAY_API_URL": "The Google Play Developer API. Empty: Google's in production, the stand-in's elsewhere. "
    "Production: https only.",
    "GOOGLE_PLAY_SERVICE_ACCOUNT": "The service account's JSON key (the JSON itself or a path) that looks purchases "
    "up. Production: required to ask Google Play; empty elsewhere: the stand-in's.",
    "GOOGLE_PLAY_PUSH_AUDIENCE": "The audience the RTDN push subscription's OIDC tokens name; empty: our notification "
    "endpoint's address under `APP_BASE_URL`.",
    "GOOGLE_PLAY_PUSH_SERVICE_ACCOUNT": "The service account the push subscription authenticates as (the token's "
    "email); a push from any other is refused (401). Empty in production: every push is refused.",
    "GOOGLE_PLAY_CERTS_URL": "Where Google publishes the keys that sign push tokens. Empty: Google's in production, "
    "the stand-in's elsewhere. Production: https only.",
    "GOOGLE_PLAY_PRODUCTS": "Which catalogue licence each Google Play product is; empty: "
    "`unicornpro.pro.android.<monthly|annual|lifetime><1|3>` for the Android plans.",
    "GOOGLE_PLAY_COMMISSION": "The share of the price Google keeps (0 to 1), recorded as `APP_STORE_COMMISSION` is.",
    "STORE_RECONCILE_AFTER_MINUTES": "How long after a store subscription's paid time (or grace) ended with nothing "
    "heard the hourly pass asks the store about it.",
}

PROCESS_DESCRIPTIONS: dict[str, str] = {
    "API_PORT": "The API's port under `make run`.",
    "WORKER_POOL": "The worker's Celery pool (`prefork`; `threads` suits a renewal worker).",
    "WORKER_CONCURRENCY": "The worker's pool size.",
    "PORTONE_SANDBOX_PORT": "The local PortOne sandbox's port under `make run`.",
}

_PROCFILE_VARIABLE = re.compile(r"\$\{(?P<name>[A-Z_]+):-(?P<default>[^}]*)\}")


def _default(name: str, value: Any, secret: bool) -> str:
    if value is None or value == "":
        return "(empty)"
    if secret:
        return "a development value"
    if isinstance(value, Path):
        return f"`{value.relative_to(PROJECT_ROOT)}/`" if value.is_relative_to(PROJECT_ROOT) else f"`{value}`"
    if isinstance(value, datetime):
        return f"`{value.isoformat()}`"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    return f"`{value}`"


def render() -> str:
    """The reference page, as markdown."""
    lines = [
        "# Configuration",
        "",
        "<!-- Generated by `python -m config.docs` from config/settings.py; edit the settings or config/docs.py. -->",
        "",
        "Every process reads these environment variables (`config/settings.py`); none is needed for `make run`.",
        "With `APP_ENV=production` a process refuses to start when `AUTH_SECRET`, `ZENDESK_SECRET`,",
        "`LICENCE_SIGNING_SECRET` or `AUDIT_SIGNING_KEY` is missing or weak, when `APP_BASE_URL` or",
        "`PORTONE_BASE_URL` is not a public https address, when uploaded objects would not be on a volume or in a",
        "bucket, when a `COMPANY_*` or `JP_SELLER_*` setting (the seller's details the footer and the Japanese",
        "disclosure page show, docs/legal.md) is not set or `COMPANY_BUSINESS_NUMBER` is not ten digits, or with the",
        "test clock or the test harness on.",
        "",
        "| variable | default | what it does |",
        "|---|---|---|",
    ]
    for field in Settings.model_fields.values():
        name = str(field.alias)
        lines.append(f"| `{name}` | {_default(name, field.default, field.repr is False)} | {DESCRIPTIONS[name]} |")
    lines += [
        "",
        "## The processes' own",
        "",
        "The `Procfile` (what `make run` starts) reads these; a deployment gives its processes their arguments.",
        "",
        "| variable | default | what it does |",
        "|---|---|---|",
    ]
    for name, default in procfile_variables().items():
        lines.append(f"| `{name}` | `{default}` | {PROCESS_DESCRIPTIONS[name]} |")
    return "\n".join(lines) + "\n"


def procfile_variables() -> dict[str, str]:
    """The Procfile's ``${NAME:-default}`` variables (``APP_VAR_DIR`` is a setting), in the order they appear."""
    found = {m["name"]: m["default"] for m in _PROCFILE_VARIABLE.finditer(PROCFILE.read_text(encoding="utf-8"))}
    return {name: default for name, default in found.items() if name not in DESCRIPTIONS}


def main() -> int:
    """Write docs/configuration.md (``--check``: exit 1 when it differs instead)."""
    text = render()
    if "--check" in sys.argv[1:]:
        return 0 if TARGET.exists() and TARGET.read_text(encoding="utf-8") == text else 1
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    TARGET.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
