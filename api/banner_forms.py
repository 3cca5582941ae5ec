"""The banner form the test harness and the back office share: the ``eventBanner`` JSON part of a multipart request
and its images, each checked as report images are (domain/images.py) and kept in the object store."""

from __future__ import annotations

import json
import uuid
from datetime import datetime
from typing import Any
from uuid import UUID

import anyio
from fastapi import Request
from pydantic import Field, ValidationError

from api.schemas import CamelModel
from api.services import Services
from api.uploads import read_image_form
from domain.errors import DomainError, ErrorCode
from domain.images import CleanImage, check_image_count, clean_image
from domain.ports import StoredObject

IMAGE_FIELDS = {"backgroundImage": "background_image_url", "pcImage": "pc_image_url", "mobileImage": "mobile_image_url"}


class BannerLocalizationIn(CamelModel):
    """A banner's content in one language (image urls may also come as uploaded files)."""

    lang_code: str = Field(pattern="^(ko|en|ja)$")
    text: str | None = None
    sub_text: str | None = None
    text_color: str | None = None
    sub_text_color: str | None = None
    background_color: str | None = None
    background_image_url: str | None = None
    pc_image_url: str | None = None
    mobile_image_url: str | None = None
    close_button_color: str | None = None
    url: str | None = None


class BannerIn(CamelModel):
    """The ``eventBanner`` JSON part (``id`` only when changing one)."""

    id: int | None = None
    type: str = Field(default="event", pattern="^(event|notice)$")
    active: bool = True
    start_at: datetime | None = None
    end_at: datetime | None = None
    apply_country: list[str] = Field(default_factory=list)
    coupon_group_id: UUID | None = None
    localizations: list[BannerLocalizationIn] = Field(default_factory=list)


MULTIPART_DOC: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "required": ["eventBanner"],
                    "properties": {
                        "eventBanner": {"type": "string", "description": "the banner as JSON (BannerIn)"},
                    },
                    "additionalProperties": {
                        "type": "string",
                        "format": "binary",
                        "description": "an image named <langCode>.<backgroundImage|pcImage|mobileImage>",
                    },
                }
            }
        },
    }
}


async def banner_form(request: Request, services: Services, *, partial: bool = False) -> dict[str, Any]:
    """The banner of a multipart request, with each uploaded image stored and its url filled in (a ``reason``
    text part, when sent, is kept under ``reason``). ``partial``: only the fields sent (a change)."""
    form = await read_image_form(request)
    raw = form.text("eventBanner")
    if raw is None:
        raise DomainError(ErrorCode.EMPTY_PARAMETER, "the eventBanner JSON part is missing")
    try:
        banner = BannerIn.model_validate(json.loads(raw))
    except (json.JSONDecodeError, ValidationError):
        raise DomainError(ErrorCode.INVALID_VALUE, "eventBanner is not a banner") from None
    check_image_count(len(form.images))
    localizations = {item.lang_code: item.model_dump(by_alias=False) for item in banner.localizations}
    for (name, _), data in zip(form.images, await form.image_bytes(), strict=True):
        lang, _, slot = name.partition(".")
        if slot not in IMAGE_FIELDS or lang not in ("ko", "en", "ja"):
            raise DomainError(ErrorCode.INVALID_VALUE, f"an image part is named <langCode>.<slot>, not {name!r}")
        image = await anyio.to_thread.run_sync(clean_image, data, limiter=services.image_decodes)
        url = _store_image(services, image, request)
        localizations.setdefault(lang, {"lang_code": lang})[IMAGE_FIELDS[slot]] = url
    record = banner.model_dump(
        by_alias=False, exclude={"id", "localizations"}, exclude_unset=partial or banner.id is not None
    )
    record["localizations"] = list(localizations.values())
    record["id"] = banner.id
    record["reason"] = form.text("reason")
    return record


def _store_image(services: Services, image: CleanImage, request: Request) -> str:
    """Keep a cleaned image (a real jpg, png or gif, -1401, -1402 otherwise); answers its url."""
    name = f"{uuid.uuid4().hex}.{image.kind.extension}"
    services.objects.put(f"banners/{name}", StoredObject(image.data, image.kind.content_type))
    return str(request.url_for("banner_image", name=name).path)
