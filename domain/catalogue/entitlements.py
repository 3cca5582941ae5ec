"""What a licence unlocks in the app: the catalogue's tiers as entitlement names an app switches features on by.

A Pro licence unlocks its platform's free editions (the basic app and its HTTPS or extension variant) and Pro;
the device count is the licence's own (``devices:<n>``).
"""

from __future__ import annotations

from domain.catalogue.products import PRODUCTS, Edition, Product


def _free_editions(product: Product) -> list[Edition]:
    free = [p for p in PRODUCTS.values() if p.platform is product.platform and not p.is_pro]
    return [edition for p in free for edition in p.editions]


def entitlements_of(product_code: str, max_devices_count: int) -> list[str]:
    """The entitlements a licence of ``product_code`` for ``max_devices_count`` devices carries, sorted."""
    product = PRODUCTS.get(product_code)
    if product is None:
        return []
    editions = set(product.editions) | (set(_free_editions(product)) if product.is_pro else set())
    return [*sorted(edition.value for edition in editions), f"devices:{max_devices_count}"]
