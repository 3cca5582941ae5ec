"""What a banner's link, colours and image addresses may be, checked when a banner is posted or changed (-2 otherwise),
so the server never keeps a ``javascript:`` link or a CSS expression for React and the CSP to stop:

- a link: an https address, or a path on this site (``/ko/purchase?code=...``);
- a colour: ``#rrggbb``;
- an image: one uploaded here (the event banners' image path), or an https address.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import urlsplit

from domain.errors import DomainError, ErrorCode
from domain.links import API_BASE_PATH

COLOUR_FIELDS = ("text_color", "sub_text_color", "background_color", "close_button_color")
IMAGE_FIELDS = ("background_image_url", "pc_image_url", "mobile_image_url")
LINK_FIELD = "url"
BANNER_IMAGES_PATH = f"{API_BASE_PATH}/event-banners/images/"
_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
_UPLOADED = re.compile(rf"^{re.escape(BANNER_IMAGES_PATH)}[0-9a-f]{{32}}\.(png|jpg|gif)$")
_UNSAFE = re.compile(r"[\s\\\x00-\x1f\x7f]")


def is_https(address: str) -> bool:
    """An absolute https address with a host, and nothing a browser would read differently."""
    if _UNSAFE.search(address):
        return False
    parts = urlsplit(address)
    return parts.scheme == "https" and bool(parts.hostname) and not parts.username and not parts.password


def is_site_path(address: str) -> bool:
    """A path on this site (``/...``, never ``//host`` nor a scheme)."""
    return address.startswith("/") and not address.startswith("//") and not _UNSAFE.search(address)


def check_localizations(localizations: Iterable[Mapping[str, Any]]) -> None:
    """-2 for a link, colour or image address a banner may not carry (an empty field is no field)."""
    for item in localizations:
        link = item.get(LINK_FIELD)
        if link and not (is_https(str(link)) or is_site_path(str(link))):
            raise DomainError(ErrorCode.INVALID_VALUE, "a banner's link is an https address or a path on this site")
        for name in COLOUR_FIELDS:
            colour = item.get(name)
            if colour and not _COLOUR.match(str(colour)):
                raise DomainError(ErrorCode.INVALID_VALUE, f"{name} is a colour as #rrggbb")
        for name in IMAGE_FIELDS:
            image = item.get(name)
            if image and not (_UPLOADED.match(str(image)) or is_https(str(image))):
                raise DomainError(ErrorCode.INVALID_VALUE, f"{name} is an image uploaded here or an https address")
