"""Multipart forms that carry images (reports, the test harness's banners): the body is bounded before it is
parsed, and every file part, whatever its field name, is an image of the form."""

from __future__ import annotations

from dataclasses import dataclass, field

from fastapi import Request
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.types import Message, Receive

from api.request_bodies import bounds_its_own_body
from domain.errors import DomainError, ErrorCode
from domain.images import MAX_IMAGE_BYTES, MAX_IMAGES, check_image_size

# Room for a few more images than allowed, so that a sixth image is answered -1403 rather than cut off.
MAX_FORM_BYTES = (MAX_IMAGES + 3) * MAX_IMAGE_BYTES + 1024 * 1024
# The parser stops past this many files (the answer is -1403 then) or fields, or a field past 64 KiB.
MAX_FILES_PARSED = 20
MAX_FIELDS = 50
MAX_FIELD_BYTES = 64 * 1024


@dataclass
class ImageForm:
    """The text fields (a repeated field as a list) and the images, in the order sent."""

    fields: dict[str, str | list[str]] = field(default_factory=dict)
    images: list[tuple[str, UploadFile]] = field(default_factory=list)

    def text(self, name: str) -> str | None:
        """A single text field (the first, when repeated)."""
        value = self.fields.get(name)
        return value[0] if isinstance(value, list) else value

    async def image_bytes(self) -> list[bytes]:
        """Each image's bytes; -1402 for one past 3 MB, found before it is read."""
        for _, upload in self.images:
            check_image_size(upload.size or 0)
        return [await upload.read() for _, upload in self.images]


async def read_image_form(request: Request) -> ImageForm:
    """The multipart form of the request; -1402 when the body is larger than any allowed form, -1403 past
    ``MAX_FILES_PARSED`` files, -2 for a body that is not such a form."""
    bounds_its_own_body(request)  # instead of the JSON bodies' cap (api.request_bodies)
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > MAX_FORM_BYTES:
        raise DomainError(ErrorCode.IMAGE_TOO_LARGE, f"a form of {declared} bytes")
    bounded = Request(request.scope, _bounded_receive(request))
    try:
        form = await bounded.form(max_files=MAX_FILES_PARSED, max_fields=MAX_FIELDS, max_part_size=MAX_FIELD_BYTES)
    except HTTPException as refused:
        code = ErrorCode.TOO_MANY_IMAGES if "files" in str(refused.detail) else ErrorCode.INVALID_VALUE
        raise DomainError(code, str(refused.detail)) from None
    parsed = ImageForm()
    for name, value in form.multi_items():
        if isinstance(value, UploadFile):
            parsed.images.append((name, value))
            continue
        known = parsed.fields.get(name)
        if known is None:
            parsed.fields[name] = value
        else:
            parsed.fields[name] = [*known, value] if isinstance(known, list) else [known, value]
    return parsed


def _bounded_receive(request: Request) -> Receive:
    received = 0

    async def receive() -> Message:
        nonlocal received
        message = await request.receive()
        if message["type"] == "http.request":
            received += len(message.get("body", b""))
            if received > MAX_FORM_BYTES:
                raise DomainError(ErrorCode.IMAGE_TOO_LARGE, "the form is larger than any allowed")
        return message

    return receive
