"""``python -m api`` serves the app through the access log, on the standard library's loop, with the objects made
at start-up frozen out of the garbage collector's full collections."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest

import api.__main__ as entry_point
from api.access_log import AccessLog


def test_the_api_starts_with_its_start_up_objects_frozen_and_its_access_log_around_the_app(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    served: dict[str, Any] = {}
    monkeypatch.setenv("APP_VAR_DIR", str(tmp_path))

    def run(app: Any, **options: Any) -> None:
        served.update(options, app=app, frozen=gc.get_freeze_count())

    monkeypatch.setattr(entry_point.uvicorn, "run", run)
    monkeypatch.setattr("sys.argv", ["python -m api", "--port", "8123"])
    gc.unfreeze()
    try:
        entry_point.main()
    finally:
        gc.unfreeze()
    assert served["frozen"] > 10_000, "the start-up heap is frozen before serving"
    assert isinstance(served["app"], AccessLog)
    assert (served["loop"], served["access_log"], served["port"]) == ("asyncio", False, 8123)
