"""``python -m api``: serve the API and the web app with uvicorn."""

from __future__ import annotations

import argparse

import uvicorn

from api.access_log import log_config
from api.app import create_app


def main() -> None:
    """Entry point."""
    parser = argparse.ArgumentParser(prog="python -m api")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    # Asked to stop, connections still open (a browser's keep-alive) get 5 s, not forever.
    uvicorn.run(
        create_app(),
        host=args.host,
        port=args.port,
        log_level="info",
        log_config=log_config(),
        proxy_headers=True,
        timeout_graceful_shutdown=5,
    )


if __name__ == "__main__":
    main()
