"""Uploaded images (report screenshots, banner images): what the spec allows and how they are cleaned.

An image is a jpg, png or gif judged by its content, never its name (-1401), of at most 3 MB (-1402), and a
form carries at most 5 (-1403). Its size in pixels is bounded to what a screenshot needs, read from the header
before any pixel is decoded: more than that (a decompression bomb: 190 KB of png that decodes to 7000x7000) is
too large, -1402, like a file over 3 MB. Pillow then decodes it whole before it is kept, so a truncated file or
anything that merely calls itself an image is refused with -1401. What is kept is re-encoded from the pixels:
EXIF (camera, GPS, orientation applied first), XMP, IPTC, comments and text chunks are left behind; the colour
profile stays, and an animated gif or png keeps its frames, timing and looping.
"""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageOps, ImageSequence

from domain.errors import DomainError, ErrorCode

log = logging.getLogger(__name__)

MAX_IMAGE_BYTES = 3 * 1024 * 1024
MAX_IMAGES = 5
# What a screenshot needs: a frame of 4096x4096 pixels (a 5K display's 5120x2880 fits, so does a phone's
# scrolling capture of 1440x11000), at most 16384 on a side; every frame of an animation together a little
# more. Decoding and re-encoding the most this allows took 0.75 s and 65 MB for a still png and 2 s for an
# animation on the 2-core build machine; the 7000x7000 png of the attacker's probe took 2.1 s and 188 MB.
MAX_FRAME_PIXELS = 4096 * 4096
MAX_SIDE = 16384
MAX_ANIMATION_PIXELS = 24_000_000
MAX_FRAMES = 250
JPEG_QUALITY = 90


@dataclass(frozen=True)
class ImageKind:
    """How an accepted format is named and served."""

    extension: str
    content_type: str
    pillow_format: str


JPG = ImageKind("jpg", "image/jpeg", "JPEG")
PNG = ImageKind("png", "image/png", "PNG")
GIF = ImageKind("gif", "image/gif", "GIF")
# Pillow names a phone's multi-picture JPEG "MPO"; it is a jpg, and only its first picture is kept.
KINDS = {"JPEG": JPG, "MPO": JPG, "PNG": PNG, "GIF": GIF}
# The decoders tried, and no other (the JPEG one answers MPO files too).
DECODERS = ("JPEG", "PNG", "GIF")


@dataclass(frozen=True)
class CleanImage:
    """An accepted image, re-encoded without its metadata."""

    data: bytes
    kind: ImageKind
    width: int
    height: int
    frames: int


def check_image_count(count: int) -> None:
    """-1403 past five images."""
    if count > MAX_IMAGES:
        raise DomainError(ErrorCode.TOO_MANY_IMAGES, f"{count} images")


def check_image_size(size: int) -> None:
    """-1402 past 3 MB."""
    if size > MAX_IMAGE_BYTES:
        raise DomainError(ErrorCode.IMAGE_TOO_LARGE, f"{size} bytes")


def clean_image(data: bytes) -> CleanImage:
    """The image re-encoded without metadata; -1402 when too big, -1401 when it is not a whole jpg, png or gif."""
    check_image_size(len(data))
    try:
        with Image.open(io.BytesIO(data), formats=DECODERS) as image:
            kind = KINDS[str(image.format)]
            frames = _count_frames(image)
            data, size = _reencode(image, kind, frames)
            return CleanImage(data, kind, size[0], size[1], frames)
    except DomainError:
        raise
    except Image.DecompressionBombError:
        # Pillow's own ceiling (twice its MAX_IMAGE_PIXELS), met in the header before ours is asked.
        raise DomainError(ErrorCode.IMAGE_TOO_LARGE, "more pixels than Pillow decodes") from None
    except Exception as refused:
        # Decoders raise all sorts on hostile input (OSError for a truncated file, SyntaxError, ValueError,
        # struct.error, DecompressionBombError, ...): whatever it is, the file is not an image we keep.
        log.info("refused an upload as an image: %s: %s", type(refused).__name__, refused)
        raise DomainError(ErrorCode.IMAGE_TYPE_NOT_ALLOWED, "not a whole jpg, png or gif") from None


def check_frame_size(width: int, height: int) -> None:
    """-1402 for a frame larger than a screenshot needs (more pixels, or a longer side)."""
    if width * height > MAX_FRAME_PIXELS or max(width, height) > MAX_SIDE:
        raise DomainError(ErrorCode.IMAGE_TOO_LARGE, f"{width}x{height} is more than a screenshot")


def _count_frames(image: Image.Image) -> int:
    """Frames of the image, each frame's size checked from its header before it is decoded (a gif's later
    frame may widen the picture), and every frame's pixels together."""
    check_frame_size(image.width, image.height)
    if image.format == "MPO" or not getattr(image, "is_animated", False):
        return 1
    frames = pixels = 0
    for frame in ImageSequence.Iterator(image):
        check_frame_size(frame.width, frame.height)
        frames += 1
        pixels += frame.width * frame.height
        if frames > MAX_FRAMES or pixels > MAX_ANIMATION_PIXELS:
            raise DomainError(ErrorCode.IMAGE_TOO_LARGE, "an animation of more frames than a screenshot")
    image.seek(0)
    return frames


def _reencode(image: Image.Image, kind: ImageKind, frames: int) -> tuple[bytes, tuple[int, int]]:
    out = io.BytesIO()
    icc_profile = image.info.get("icc_profile")
    options: dict[str, Any] = {"icc_profile": icc_profile} if icc_profile else {}
    if kind is JPG:
        upright = ImageOps.exif_transpose(image)
        if upright.mode not in ("RGB", "L", "CMYK"):
            upright = upright.convert("RGB")
        upright.info = {}
        upright.save(out, "JPEG", quality=JPEG_QUALITY, **options)
        return out.getvalue(), upright.size
    if kind is GIF:
        # An empty comment keeps Pillow from copying the first frame's comment into the file (timing and
        # looping it copies from the frames, as it should).
        options["comment"] = b""
    image.load()
    image.save(out, kind.pillow_format, save_all=frames > 1, **options)
    return out.getvalue(), image.size
