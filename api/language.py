"""Which language an answer is written in: ?localeCode, then Accept-Language, then Korean."""

from __future__ import annotations

from fastapi import Request

from events.values import Language


def request_language(request: Request) -> Language:
    """The language of error messages and mails for this request."""
    for candidate in (request.query_params.get("localeCode"), request.query_params.get("lang")):
        if candidate:
            try:
                return Language(candidate.lower()[:2])
            except ValueError:
                pass
    for part in request.headers.get("accept-language", "").split(","):
        tag = part.split(";")[0].strip().lower()[:2]
        try:
            return Language(tag)
        except ValueError:
            continue
    return Language.KO
