"""Uploaded images: jpg, png or gif by content, at most 3 MB and 5; what is kept carries no metadata."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from PIL import Image

from domain.errors import DomainError, ErrorCode
from domain.images import GIF, JPG, PNG, check_image_count, clean_image
from tests import images


def test_a_phone_photo_is_kept_upright_without_its_camera_or_position() -> None:
    original = images.phone_photo(width=64, height=48)
    assert images.CAMERA.encode() in original

    kept = clean_image(original)

    assert (kept.kind, kept.width, kept.height, kept.frames) == (JPG, 48, 64, 1), "turned as its EXIF said"
    assert images.CAMERA.encode() not in kept.data
    assert b"taken at home" not in kept.data
    reopened = Image.open(io.BytesIO(kept.data))
    assert not reopened.getexif(), "no EXIF at all: no camera, no GPS, no orientation"
    assert reopened.getpixel((10, 10))[0] > 150, "the pixels are the photo's"


def test_a_png_loses_its_text_chunks_and_exif() -> None:
    kept = clean_image(images.annotated_png())
    assert kept.kind is PNG
    assert b"Kim Minsu" not in kept.data and images.CAMERA.encode() not in kept.data
    reopened = Image.open(io.BytesIO(kept.data))
    assert reopened.mode == "RGBA" and "Author" not in reopened.info


def test_an_animated_gif_keeps_its_frames_timing_and_looping_but_not_its_comment() -> None:
    kept = clean_image(images.animated_gif(durations=(100, 200, 300)))
    assert (kept.kind, kept.frames) == (GIF, 3)
    assert b"made by me" not in kept.data
    reopened = Image.open(io.BytesIO(kept.data))
    durations = []
    for frame in range(reopened.n_frames):
        reopened.seek(frame)
        durations.append(reopened.info["duration"])
    assert durations == [100, 200, 300]
    assert reopened.info["loop"] == 0


@pytest.mark.parametrize(
    ("upload", "code"),
    [
        (lambda: images.SCRIPT, ErrorCode.IMAGE_TYPE_NOT_ALLOWED),
        (images.truncated_jpeg, ErrorCode.IMAGE_TYPE_NOT_ALLOWED),
        (lambda: images.plain_png(400, 400)[:300], ErrorCode.IMAGE_TYPE_NOT_ALLOWED),
        (images.decompression_bomb, ErrorCode.IMAGE_TOO_LARGE),
        (lambda: images.decompression_bomb(9000, 9000), ErrorCode.IMAGE_TOO_LARGE),
        (lambda: images.decompression_bomb(4097, 4096), ErrorCode.IMAGE_TOO_LARGE),
        (lambda: images.decompression_bomb(16385, 8), ErrorCode.IMAGE_TOO_LARGE),
        (lambda: _encoded_as("WEBP"), ErrorCode.IMAGE_TYPE_NOT_ALLOWED),
        (lambda: _encoded_as("BMP"), ErrorCode.IMAGE_TYPE_NOT_ALLOWED),
        (lambda: b"\x89PNG\r\n\x1a\n" + b"\0" * (3 * 1024 * 1024), ErrorCode.IMAGE_TOO_LARGE),
    ],
    ids=[
        "script renamed .png",
        "truncated jpeg",
        "truncated png",
        "bomb past Pillow's own limit",
        "bomb of 81 megapixels, under Pillow's limit but past ours",
        "one row more than a screenshot",
        "a strip longer than any screen",
        "webp",
        "bmp",
        "over 3 MB",
    ],
)
def test_what_is_not_a_whole_small_jpg_png_or_gif_is_refused(upload: Callable[[], bytes], code: ErrorCode) -> None:
    with pytest.raises(DomainError) as refused:
        clean_image(upload())
    assert refused.value.code is code


def test_an_animation_of_too_many_frames_is_a_bomb_too() -> None:
    frames = [Image.new("L", (4, 4), n % 256) for n in range(251)]
    out = io.BytesIO()
    frames[0].save(out, "GIF", save_all=True, append_images=frames[1:])
    with pytest.raises(DomainError) as refused:
        clean_image(out.getvalue())
    assert refused.value.code is ErrorCode.IMAGE_TOO_LARGE


def test_a_screenshot_of_a_5k_display_is_kept() -> None:
    assert clean_image(images.plain_png(5120, 2880)).width == 5120


def test_a_form_takes_five_images_and_not_six() -> None:
    check_image_count(5)
    with pytest.raises(DomainError) as refused:
        check_image_count(6)
    assert refused.value.code is ErrorCode.TOO_MANY_IMAGES


def _encoded_as(fmt: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (10, 10)).save(out, fmt)
    return out.getvalue()
