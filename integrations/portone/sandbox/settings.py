"""Sandbox configuration (PORTONE_SANDBOX_*, keys from PORTONE_IMP_KEY / PORTONE_IMP_SECRET)."""

from __future__ import annotations

from pathlib import Path

from pydantic import AliasChoices, Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

# The same dev defaults as config.settings (PORTONE_IMP_KEY / PORTONE_IMP_SECRET), so
# that `make run` works with no environment; the sandbox holds no real secret.
DEV_IMP_KEY = "sandbox-imp-key"
DEV_IMP_SECRET = "sandbox-imp-secret"  # noqa: S105


class SandboxSettings(BaseSettings):
    """How the sandbox runs: its keys, store, public URL and webhook target."""

    model_config = SettingsConfigDict(env_prefix="PORTONE_SANDBOX_", extra="ignore", populate_by_name=True)

    imp_key: str = Field(default=DEV_IMP_KEY, validation_alias=AliasChoices("PORTONE_IMP_KEY"))
    imp_secret: SecretStr = Field(
        default=SecretStr(DEV_IMP_SECRET), validation_alias=AliasChoices("PORTONE_IMP_SECRET")
    )
    db_path: Path = Path("var/portone-sandbox.sqlite3")
    public_url: str = "http://127.0.0.1:8001"
    """Where the sandbox is reachable (with any mount prefix); used in receipt_url."""
    notice_url: str | None = None
    """Webhook target; a request's own notice_url wins. None sends no webhooks."""
    token_ttl_seconds: int = Field(default=30 * 60, gt=60)
    token_extension_seconds: int = Field(default=5 * 60, gt=0)
    vbank_valid_days: int = Field(default=3, gt=0)
    vbank_holder: str = "UNICORNPRO"
    webhook_timeout_seconds: float = Field(default=5.0, gt=0)
    latency_seconds: float = Field(default=0.0, ge=0)
    """How long every REST answer waits, as a real gateway's does (faults.py; PORTONE_SANDBOX_LATENCY_SECONDS)."""
