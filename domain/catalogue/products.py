"""The app family: product codes, platforms, editions and their names in three languages."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from events.values import Language


class Platform(Enum):
    """Where an app runs."""

    ANDROID = "android"
    IOS = "ios"
    MAC = "mac"
    WINDOWS = "windows"


class Edition(Enum):
    """The basic app, its HTTPS and extension variants, and the Pro tier."""

    BASIC = "basic"
    HTTPS = "https"
    EXTENSION = "extension"
    PRO = "pro"


@dataclass(frozen=True)
class Product:
    """One product code of the family."""

    code: str
    platform: Platform
    editions: tuple[Edition, ...]
    names: dict[Language, str]

    @property
    def is_pro(self) -> bool:
        """Pro products are the paid tier with licences."""
        return Edition.PRO in self.editions

    def name(self, language: Language) -> str:
        """The localized name (Korean when the language is missing)."""
        return self.names.get(language) or self.names[Language.KO]


def _names(ko: str, en: str, ja: str) -> dict[Language, str]:
    return {Language.KO: ko, Language.EN: en, Language.JA: ja}


PRODUCTS: dict[str, Product] = {
    product.code: product
    for product in (
        Product("uncea", Platform.ANDROID, (Edition.BASIC, Edition.HTTPS),
                _names("유니콘 안드로이드", "Unicorn for Android", "ユニコーン Android版")),
        Product("uncei", Platform.IOS, (Edition.BASIC, Edition.EXTENSION),
                _names("유니콘 iOS", "Unicorn for iOS", "ユニコーン iOS版")),
        Product("uncem", Platform.MAC, (Edition.BASIC, Edition.EXTENSION),
                _names("유니콘 Mac", "Unicorn for Mac", "ユニコーン Mac版")),
        Product("uncpa", Platform.ANDROID, (Edition.PRO,),
                _names("유니콘 프로 안드로이드", "Unicorn Pro for Android", "ユニコーン Pro Android版")),
        Product("uncpw", Platform.WINDOWS, (Edition.PRO,),
                _names("유니콘 프로 윈도우", "Unicorn Pro for Windows", "ユニコーン Pro Windows版")),
        Product("uncpi", Platform.IOS, (Edition.PRO,),
                _names("유니콘 프로 iOS", "Unicorn Pro for iOS", "ユニコーン Pro iOS版")),
        Product("uncpm", Platform.MAC, (Edition.PRO,),
                _names("유니콘 프로 Mac", "Unicorn Pro for Mac", "ユニコーン Pro Mac版")),
    )
}  # fmt: skip
