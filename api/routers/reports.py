"""Ad, misblock and bug reports (spec sections 3, 5, 7): the filter groups a report names, checking an image
before the form adds it, sending a report with its images, and the signed links support opens images with."""

from __future__ import annotations

from functools import partial
from typing import Annotated, Any
from uuid import UUID

import anyio
from fastapi import APIRouter, Path, Query, Request, Response
from pydantic import Field, ValidationError

from api.access import OptionalCallerDep
from api.error_docs import errors
from api.errors import validation_code
from api.schemas import CamelModel
from api.services import ServicesDep
from api.uploads import read_image_form
from domain.errors import DomainError, ErrorCode
from domain.images import MAX_IMAGES, clean_image
from domain.reports.filters import FilterGroup
from domain.reports.links import check_image_link
from domain.reports.report import ReportForm, submit_report

router = APIRouter(prefix="/reports", tags=["reports"])

IMAGE_ERRORS = (ErrorCode.IMAGE_TYPE_NOT_ALLOWED, ErrorCode.IMAGE_TOO_LARGE, ErrorCode.TOO_MANY_IMAGES)
REPORT_FIELDS = (
    "product",
    "problem",
    "url",
    "comment",
    "email",
    "adult",
    "application",
    "applicationEtc",
    "filters",
    "customFilters",
    "version",
    "deviceModel",
    "filterVersions",
    "os",
    "osVersion",
    "checked",
)
BINARY = {"type": "string", "format": "binary"}


def _multipart(properties: dict[str, Any], required: list[str], description: str) -> dict[str, Any]:
    schema = {"type": "object", "properties": properties, "required": required}
    return {
        "requestBody": {
            "required": True,
            "description": description,
            "content": {"multipart/form-data": {"schema": schema}},
        }
    }


REPORT_DOC = _multipart(
    {
        **{name: {"type": "string"} for name in REPORT_FIELDS},
        "images": {"type": "array", "items": BINARY, "maxItems": MAX_IMAGES},
    },
    ["product", "problem"],
    "Only non-empty fields are sent. `filters`: filter ids, comma-separated; `customFilters`: one rule a line; "
    "`adult`, `checked`: true or false (`checked`, the sender's agreement, is required). Every file part, "
    "whatever its name, is an image: jpg, png or gif by content, at most 3 MB each, at most 5.",
)
VALIDATE_DOC = _multipart({"image": BINARY}, ["image"], "One image, in a part of any name.")


class ImageChecked(CamelModel):
    """The image as it will be kept (metadata stripped)."""

    content_type: str
    width: int
    height: int
    frames: int


class ReportSubmitted(CamelModel):
    """The recorded report."""

    report_id: UUID
    images: int = Field(description="how many images were kept")


@router.get("/filter-groups", response_model=list[FilterGroup], responses=errors())
def filter_groups(services: ServicesDep, product: Annotated[str, Query(min_length=1, max_length=20)]) -> Any:
    """The filter groups of a product's catalogue (uncpa, uncpw, uncpi, uncpm; the basic apps' too)."""
    return services.filters.for_product(product).groups


@router.post(
    "/validate",
    response_model=ImageChecked,
    responses=errors(*IMAGE_ERRORS, ErrorCode.TOO_MANY_REQUESTS),
    openapi_extra=VALIDATE_DOC,
)
async def validate_image(request: Request, services: ServicesDep) -> ImageChecked:
    """Check one image before the report form adds it (-1401 type, -1402 size)."""
    await anyio.to_thread.run_sync(services.limiter.image_check, request)  # Redis's round trip off the loop
    form = await read_image_form(request)
    if not form.images:
        raise DomainError(ErrorCode.EMPTY_PARAMETER, "no image")
    if len(form.images) > 1:
        raise DomainError(ErrorCode.INVALID_VALUE, "one image at a time")
    (data,) = await form.image_bytes()
    image = await anyio.to_thread.run_sync(clean_image, data, limiter=services.image_decodes)
    return ImageChecked(
        content_type=image.kind.content_type, width=image.width, height=image.height, frames=image.frames
    )


@router.post(
    "",
    response_model=ReportSubmitted,
    responses=errors(*IMAGE_ERRORS, ErrorCode.TOO_MANY_REQUESTS),
    openapi_extra=REPORT_DOC,
)
async def send_report(request: Request, services: ServicesDep, caller: OptionalCallerDep) -> ReportSubmitted:
    """Send an ad, misblock or bug report with up to five images (bearer optional)."""
    form = await read_image_form(request)
    account_id = caller.account_id if caller else None
    reporter = form.text("email") or (str(account_id) if account_id else None)
    await anyio.to_thread.run_sync(services.limiter.report, request, reporter)  # Redis's round trips off the loop
    try:
        report = ReportForm.model_validate(form.fields)
    except ValidationError as invalid:
        raise DomainError(validation_code([dict(error) for error in invalid.errors()]), "report fields") from None
    uploads = await form.image_bytes()
    submit = partial(
        submit_report, services.store, services.objects, services.clock, services.filters, report, uploads, account_id
    )
    recorded = await anyio.to_thread.run_sync(submit, limiter=services.image_decodes)  # it decodes each image
    return ReportSubmitted(report_id=recorded.id, images=len(recorded.images))


@router.get(
    "/images/{key:path}",
    response_class=Response,
    responses={200: {"content": {"image/png": {}, "image/jpeg": {}, "image/gif": {}}}, **errors(ErrorCode.FORBIDDEN)},
)
def report_image(
    services: ServicesDep,
    key: Annotated[str, Path(max_length=200)],
    expires: Annotated[int, Query()],
    signature: Annotated[str, Query(max_length=64)],
) -> Response:
    """A report's image, through the signed link the operator's export gives support (embedded file store)."""
    check_image_link(services.settings.auth_secret, key, expires, signature, services.clock.now())
    stored = services.objects.get(key)
    if stored is None:
        raise DomainError(ErrorCode.FORBIDDEN, "no such image")
    return Response(stored.data, media_type=stored.content_type)  # no-store: a customer's screenshot
