"""The baseline of the read benchmarks: a bare FastAPI endpoint answering, from memory, exactly the bytes our
endpoint answered, served by the same uvicorn as the API (`uvicorn bench.bare:app`, answers from the JSON file
named by BENCH_BARE_ANSWERS)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from pydantic import BaseModel

app = FastAPI()
ANSWERS: dict[str, Any] = json.loads(Path(os.environ["BENCH_BARE_ANSWERS"]).read_text(encoding="utf-8"))


@app.get("/answer/{name}")
def answer(name: str) -> Any:
    """What our endpoint ``name`` answered when the benchmark started."""
    return ANSWERS[name]


class CheckIn(BaseModel):
    """What an app sends to validate (read like our endpoint reads it, so the baseline parses a body too)."""

    licenceKey: str  # noqa: N815 - the wire name
    deviceId: str  # noqa: N815 - the wire name
    platform: str


@app.post("/answer/{name}")
def answer_posted(name: str, body: CheckIn) -> Any:
    """What our endpoint ``name`` answered to a POST when the benchmark started."""
    return ANSWERS[name]
