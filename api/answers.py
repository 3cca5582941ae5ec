"""Answers serialised by the route itself.

A route that returns a model has FastAPI dump it, validate the dump against ``response_model`` and serialise
that again; a read route whose models were just built from the views gains nothing from the second pass. It
returns ``json_answer(...)`` and keeps ``response_model`` on its decorator for the OpenAPI document.
"""

from __future__ import annotations

from typing import Any

from fastapi import Response
from pydantic import BaseModel, TypeAdapter


def json_answer(value: BaseModel | list[Any], adapter: TypeAdapter[Any] | None = None) -> Response:
    """A 200 answer holding ``value`` as JSON, exactly as FastAPI would have written it (by alias); a list
    needs the ``TypeAdapter`` of its type."""
    if isinstance(value, BaseModel):
        return Response(value.model_dump_json(), media_type="application/json")
    if adapter is None:
        raise TypeError("a list needs its TypeAdapter")
    return Response(adapter.dump_json(value), media_type="application/json")
