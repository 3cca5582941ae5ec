"""Which catalogue licence each store product is, and what each store keeps of the price.

Store products are named in App Store Connect and the Play Console; the mapping is a setting
(``APP_STORE_PRODUCTS``, ``GOOGLE_PLAY_PRODUCTS``: ``productId=licenceId,...``). The defaults name the iOS and Mac
plans for the App Store and the Android plans for Google Play after their catalogue ids.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import ROUND_FLOOR, Decimal

from domain.app_stores.facts import Store
from domain.errors import DomainError, ErrorCode

_PERIODS = {"monthly": 1, "annual": 2, "lifetime": 3}


def default_products(platform: str, product_digit: int) -> str:
    """``unicornpro.pro.<platform>.<period><devices>=<licence id>`` for each of a product's six plans."""
    return ",".join(
        f"unicornpro.pro.{platform}.{period}{devices}={product_digit}{digit}{devices}"
        for period, digit in _PERIODS.items()
        for devices in (1, 3)
    )


DEFAULT_APP_STORE_PRODUCTS = f"{default_products('ios', 3)},{default_products('mac', 4)}"
DEFAULT_GOOGLE_PLAY_PRODUCTS = default_products("android", 1)


def parse_products(value: str) -> dict[str, int]:
    """``productId=licenceId,...`` (ValueError for anything else)."""
    products: dict[str, int] = {}
    for item in value.split(","):
        if not item.strip():
            continue
        product, _, licence = item.partition("=")
        if not product.strip() or not licence.strip().isdigit():
            raise ValueError(f"not productId=licenceId: {item!r}")
        products[product.strip()] = int(licence)
    return products


@dataclass(frozen=True)
class StoreRules:
    """The products each store sells and the share of the price each keeps (its commission)."""

    products: Mapping[Store, Mapping[str, int]] = field(default_factory=dict)
    commission: Mapping[Store, Decimal] = field(default_factory=dict)

    def licence_id_of(self, store: Store, product_id: str) -> int:
        """The catalogue licence a store product is (-302 for a product we do not sell)."""
        licence_id = self.products.get(store, {}).get(product_id)
        if licence_id is None:
            raise DomainError(ErrorCode.INVALID_PRODUCT_AT_INIT, f"{store.value} product {product_id!r} is not ours")
        return licence_id

    def commission_rate(self, store: Store) -> Decimal:
        """The share of the price the store keeps."""
        return self.commission.get(store, Decimal(0))

    def commission_of(self, store: Store, amount: int) -> int:
        """What the store keeps of ``amount`` (minor units, rounded down: the store's share never over-counted)."""
        kept = Decimal(amount) * self.commission_rate(store)
        return int(kept.to_integral_value(rounding=ROUND_FLOOR))
