"""Producers and Celery workers on the storefront's app, as processes of their own, for the broker's tests.

``python -m tests.integration.broker_processes produce <prefix> <count>`` publishes ``count`` tasks named
``<prefix>-<n>``, ``produce-hold`` one held task; any other arguments are Celery's (``worker --pool prefork``).
The worker knows two more tasks: ``broker_test.note`` records that it ran, ``broker_test.hold`` on its first
delivery tells the test it started and then waits to be killed (it completes when it is delivered again). Each
process appends what its tasks did to ``<APP_VAR_DIR>/ran/<pid>.txt``, one line a task: ``<task id> <redelivered>``.
"""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path
from typing import Any

from config.settings import load_settings
from workers.celery_app import StorefrontCelery, create_celery


def ran_folder() -> Path:
    """Where each process records the tasks it ran."""
    return load_settings().var_dir / "ran"


def started_folder() -> Path:
    """Where a held task says it started (a file named for its pool process's pid)."""
    return load_settings().var_dir / "started"


def _record(task_id: str, redelivered: bool) -> None:
    folder = ran_folder()
    folder.mkdir(exist_ok=True)
    with (folder / f"{os.getpid()}.txt").open("a", encoding="ascii") as record:
        record.write(f"{task_id} {int(redelivered)}\n")


def build_app() -> StorefrontCelery:
    """The storefront's Celery app with the two test tasks."""
    app = create_celery(load_settings())

    @app.task(name="broker_test.note", bind=True)  # type: ignore[untyped-decorator]
    def note(self: Any) -> None:
        _record(self.request.id, bool(self.request.delivery_info.get("redelivered")))

    @app.task(name="broker_test.hold", bind=True)  # type: ignore[untyped-decorator]
    def hold(self: Any) -> None:
        redelivered = bool(self.request.delivery_info.get("redelivered"))
        if not redelivered:
            started = started_folder()
            started.mkdir(exist_ok=True)
            # Written whole, then renamed into place: the test kills this process as soon as the file appears.
            note = started.parent / f"started-{os.getpid()}.tmp"
            note.write_text(self.request.id)
            note.replace(started / str(os.getpid()))
            threading.Event().wait(120)  # until the test kills this process (long before)
        _record(self.request.id, redelivered)

    return app


def produce(prefix: str, count: int) -> None:
    """Publish ``count`` note tasks, ids ``<prefix>-<n>``."""
    app = build_app()
    for number in range(count):
        app.send_task("broker_test.note", task_id=f"{prefix}-{number}")


def main(argv: list[str]) -> int:
    """Produce, or run Celery's command line on the app."""
    if argv[:1] == ["produce"]:
        produce(argv[1], int(argv[2]))
        return 0
    if argv[:1] == ["produce-hold"]:
        build_app().send_task("broker_test.hold")
        return 0
    return int(build_app().start(argv) or 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
