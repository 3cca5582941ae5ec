"""Finding 6, resource use: an unauthenticated 190 KB png of 7000x7000 took 2-3 s and 115-190 MB in the API
process at ``POST /reports/validate`` (and again in a report), and 50 MB JSON bodies were parsed (login,
register, webhook).

Now an image's size in pixels is read from its header and bounded to what a screenshot needs (-1402 past it,
before any pixel is decoded), images are decoded two at a time per process, and every API body but the
routes' own multipart forms is capped at 64 KiB (413 with -2), whether it declares its length or not.
"""

from __future__ import annotations

import io
import struct
import threading
import time
import zlib
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from PIL import Image, ImageFile

import api.routers.reports
from api.request_bodies import MAX_BODY_BYTES
from api.services import IMAGE_DECODES_AT_ONCE
from domain.images import CleanImage, clean_image
from tests import images
from tests.security.shop import V1, Shop, shop

__all__ = ["shop"]

pytestmark = pytest.mark.integration

FIFTY_MB = 50 * 1024 * 1024


def probe_png(side: int = 7000) -> bytes:
    """The probe's file: an RGBA png of ``side`` x ``side`` pixels, all transparent, some 190 KB."""
    squeeze = zlib.compressobj(9)
    row = b"\0" * (1 + 4 * side)
    data = b"".join(squeeze.compress(row) for _ in range(side)) + squeeze.flush()
    header = struct.pack(">IIBBBBB", side, side, 8, 6, 0, 0, 0)

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")


def refused(answer: Any) -> tuple[int, int]:
    return answer.status_code, answer.json()["errorCode"]


def test_the_probes_png_is_refused_from_its_header_at_once(shop: Shop, monkeypatch: pytest.MonkeyPatch) -> None:
    bomb = probe_png()
    assert len(bomb) < 200_000
    anonymous = shop.peer("203.0.113.30")
    decoded: list[tuple[int, int]] = []
    decode = ImageFile.ImageFile.load

    def noted_decode(image: ImageFile.ImageFile) -> Any:
        decoded.append(image.size)
        return decode(image)

    monkeypatch.setattr(ImageFile.ImageFile, "load", noted_decode)
    checked = anonymous.post(f"{V1}/reports/validate", files={"image": ("shot.png", bomb, "image/png")})
    assert refused(checked) == (400, -1402), "more pixels than a screenshot: too large"
    assert decoded == [], "refused from its header, before a pixel is decoded (decoding it took 2 s)"

    form = {"product": "uncpm", "problem": "ad", "url": "https://news.example/", "checked": "true"}
    report = anonymous.post(f"{V1}/reports", data=form, files=[("images", ("shot.png", bomb, "image/png"))])
    assert refused(report) == (400, -1402)
    with shop.services.views.read() as cursor:
        cursor.execute("SELECT COUNT(*) AS n FROM reports_view")
        assert cursor.fetchall() == [{"n": 0}], "no report was recorded"


def test_a_screenshot_of_a_5k_display_is_still_welcome(shop: Shop) -> None:
    shot = images.plain_png(5120, 2880)
    checked = shop.peer("203.0.113.31").post(f"{V1}/reports/validate", files={"image": ("5k.png", shot, "image/png")})
    assert checked.status_code == 200, checked.text
    assert (checked.json()["width"], checked.json()["height"]) == (5120, 2880)


def test_images_are_decoded_a_few_at_a_time(shop: Shop, monkeypatch: pytest.MonkeyPatch) -> None:
    at_once, most = 0, 0
    lock = threading.Lock()

    def slow_clean(data: bytes) -> CleanImage:
        nonlocal at_once, most
        with lock:
            at_once += 1
            most = max(most, at_once)
        time.sleep(0.2)
        with lock:
            at_once -= 1
        return clean_image(data)

    monkeypatch.setattr(api.routers.reports, "clean_image", slow_clean)
    shot = images.plain_png()
    with TestClient(shop.app, client=("203.0.113.32", 50000)) as client:

        def check() -> None:
            answer = client.post(f"{V1}/reports/validate", files={"image": ("s.png", shot, "image/png")})
            assert answer.status_code == 200

        callers = [threading.Thread(target=check) for _ in range(6)]
        for caller in callers:
            caller.start()
        for caller in callers:
            caller.join()
    assert most == IMAGE_DECODES_AT_ONCE


def chunks(total: int, size: int = 64 * 1024) -> Iterator[bytes]:
    """A body sent without a declared length."""
    yield b'{"email": "x@example.com", "pw": "'
    for _ in range(total // size):
        yield b"a" * size
    yield b'"}'


@pytest.mark.parametrize(
    "path", ["/auth/login", "/accounts?redirectionUri=http://127.0.0.1:8000/ko/register", "/payments/webhook"]
)
def test_fifty_megabytes_of_json_are_refused_unread(shop: Shop, path: str) -> None:
    client = shop.peer("203.0.113.33")
    huge = b'{"email": "big@example.com", "pw": "abcd1234", "x": "' + b"a" * FIFTY_MB + b'"}'
    declared = client.post(f"{V1}{path}", content=huge, headers={"Content-Type": "application/json"})
    assert refused(declared) == (413, -2)
    streamed = client.post(f"{V1}{path}", content=chunks(FIFTY_MB // 50), headers={"Content-Type": "application/json"})
    assert refused(streamed) == (413, -2), "a body without a length is cut off at the cap"
    registered = client.get(f"{V1}/accounts/check", params={"email": "big@example.com"}).json()
    assert registered == {"isRegistered": False}, "nothing was registered"


def test_a_body_just_under_the_cap_is_read_and_one_just_over_is_not(shop: Shop) -> None:
    client = shop.peer("203.0.113.34")
    padding = MAX_BODY_BYTES - len(b'{"email": "a@example.com", "pw": ""}')
    fits = b'{"email": "a@example.com", "pw": "' + b"a" * padding + b'"}'
    assert len(fits) == MAX_BODY_BYTES
    assert refused(client.post(f"{V1}/auth/login", content=fits, headers={"Content-Type": "application/json"})) == (
        401,
        -400,
    )
    over = fits[:-2] + b'a"}'
    assert refused(client.post(f"{V1}/auth/login", content=over, headers={"Content-Type": "application/json"})) == (
        413,
        -2,
    )


def test_only_the_routes_that_take_forms_take_big_multipart_bodies(shop: Shop) -> None:
    client = shop.peer("203.0.113.35")
    photo = io.BytesIO()
    Image.effect_noise((700, 700), 64).convert("RGB").save(photo, "PNG", compress_level=0)
    assert MAX_BODY_BYTES < len(photo.getvalue()) < 3 * 1024 * 1024
    form = {"product": "uncpm", "problem": "ad", "url": "https://news.example/", "checked": "true"}
    report = client.post(f"{V1}/reports", data=form, files=[("images", ("p.png", photo.getvalue(), "image/png"))])
    assert report.status_code == 200, report.text

    login = client.post(f"{V1}/auth/login", data={"email": "a@example.com"}, files={"x": ("x", photo.getvalue())})
    assert refused(login) == (413, -2), "calling a body a form buys nothing on a JSON route"
