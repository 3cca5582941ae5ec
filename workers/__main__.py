"""``python -m workers worker|beat|inspect …``: Celery's command line on the storefront's app.

Celery's own ``celery -A module`` needs an app built when the module is imported;
this entry point builds it when the process starts instead, from the environment's
settings. The services tasks use come from the composition root on the first task
of each pool process.
"""

from __future__ import annotations

import sys

from config.settings import load_settings
from integrations.observability import init_sentry
from workers.celery_app import create_celery


def main(argv: list[str] | None = None) -> int:
    """Entry point: the arguments are Celery's (``worker --concurrency 2``, ``beat --schedule …``)."""
    settings = load_settings()
    init_sentry(settings)
    app = create_celery(settings)
    return int(app.start(sys.argv[1:] if argv is None else argv) or 0)


if __name__ == "__main__":
    sys.exit(main())
