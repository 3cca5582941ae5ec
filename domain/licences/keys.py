"""Licence keys: 16 characters in four groups, from an alphabet without look-alike characters."""

from __future__ import annotations

import re
import secrets

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford base32: no I, L, O, U
_SHAPE = re.compile(rf"^[{ALPHABET}]{{4}}(-[{ALPHABET}]{{4}}){{3}}$")


def new_licence_key() -> str:
    """A fresh random key such as ``7K3M-Q9TX-2WPA-H4ZD`` (80 bits of randomness)."""
    characters = "".join(secrets.choice(ALPHABET) for _ in range(16))
    return "-".join(characters[i : i + 4] for i in range(0, 16, 4))


def normalise_licence_key(key: str) -> str:
    """Upper-case, trimmed, with the hyphens put back where a customer may have left them out."""
    compact = re.sub(r"[\s-]", "", key).upper()
    if len(compact) != 16:
        return compact
    return "-".join(compact[i : i + 4] for i in range(0, 16, 4))


def is_well_formed(key: str) -> bool:
    """Does the key have the shape we issue?"""
    return bool(_SHAPE.match(normalise_licence_key(key)))
