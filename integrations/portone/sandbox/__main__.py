"""Run the sandbox: ``python -m integrations.portone.sandbox --port 8001 --db var/x.sqlite3``."""

from __future__ import annotations

import argparse
import logging
from collections.abc import Sequence
from pathlib import Path

import uvicorn

from config.settings import Settings as StoreSettings
from eventlog.database import open_view_database
from integrations.portone.sandbox.app import create_sandbox_app
from integrations.portone.sandbox.service import Clock
from integrations.portone.sandbox.settings import SandboxSettings


def build_settings(argv: Sequence[str] | None = None) -> tuple[SandboxSettings, str, int, str]:
    """Settings from the environment, overridden by command-line options."""
    parser = argparse.ArgumentParser(
        prog="python -m integrations.portone.sandbox",
        description="Local PortOne (iamport) V1 sandbox. Keys: PORTONE_IMP_KEY/PORTONE_IMP_SECRET.",
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8001)
    parser.add_argument("--db", type=Path, help="SQLite file (default var/portone-sandbox.sqlite3)")
    parser.add_argument("--notice-url", help="webhook target (default: none, no webhooks)")
    parser.add_argument("--public-url", help="URL the sandbox is reached at (default from host/port)")
    parser.add_argument("--log-level", default="info")
    args = parser.parse_args(argv)
    overrides: dict[str, object] = {}
    if args.db is not None:
        overrides["db_path"] = args.db
    if args.notice_url:
        overrides["notice_url"] = args.notice_url
    overrides["public_url"] = args.public_url or f"http://{args.host}:{args.port}"
    settings = SandboxSettings(**overrides)  # type: ignore[arg-type]
    return settings, args.host, args.port, args.log_level


def shared_clock() -> Clock | None:
    """With ``TEST_CLOCK`` on, the store's shared test clock (its offset kept in the view database the store's settings
    name), so the sandbox dates payments on the same clock as the store; None otherwise (the system clock)."""
    store = StoreSettings()
    if not store.test_clock:
        return None
    from harness.clock import SharedTestClock  # the harness is not installed in production: imported only when on

    return SharedTestClock(open_view_database(store.view_store_env)).now


def main(argv: Sequence[str] | None = None) -> None:
    """Start the sandbox with uvicorn (on the store's shared test clock when ``TEST_CLOCK`` is on)."""
    settings, host, port, log_level = build_settings(argv)
    logging.basicConfig(level=log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    clock = shared_clock()
    app = create_sandbox_app(settings) if clock is None else create_sandbox_app(settings, clock=clock)
    uvicorn.run(app, host=host, port=port, log_level=log_level, timeout_graceful_shutdown=5)


if __name__ == "__main__":
    main()
