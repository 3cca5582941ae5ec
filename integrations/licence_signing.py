"""Signing the apps' licence tokens: JWS compact (a JWT) with EdDSA/Ed25519 through joserfc, keys published as a
JWKS with RFC 7638 thumbprints as key ids; keys rotated out stay in the JWKS so their tokens verify until ``exp``.
"""

from __future__ import annotations

import base64
import hashlib
import warnings
from collections.abc import Iterable
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from joserfc import jwt
from joserfc.errors import SecurityWarning
from joserfc.jwk import OKPKey

ALGORITHM = "EdDSA"


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def public_jwk(raw_public_key: bytes) -> dict[str, str]:
    """The JWK of an Ed25519 public key, with its thumbprint as ``kid``."""
    key = OKPKey.import_key({"kty": "OKP", "crv": "Ed25519", "x": _b64url(raw_public_key)})
    return {"kty": "OKP", "crv": "Ed25519", "x": _b64url(raw_public_key), "kid": key.thumbprint(),
            "alg": ALGORITHM, "use": "sig"}  # fmt: skip


class LicenceSigner:
    """Signs licence claims with the current key; publishes it and the previous public keys."""

    def __init__(self, secret: str, previous_public_keys: Iterable[str] = ()) -> None:
        seed = hashlib.sha256(secret.encode("utf-8")).digest()
        private = Ed25519PrivateKey.from_private_bytes(seed)
        self.public_key = private.public_key().public_bytes_raw()
        self._jwk = public_jwk(self.public_key)
        self._key = OKPKey.import_key({**self._jwk, "d": _b64url(seed)})
        previous = [base64.urlsafe_b64decode(k + "=" * (-len(k) % 4)) for k in previous_public_keys if k]
        self._previous = [public_jwk(raw) for raw in previous if raw != self.public_key]

    @property
    def key_id(self) -> str:
        """The current key's id (the JWS header's ``kid``)."""
        return self._jwk["kid"]

    def sign(self, claims: dict[str, Any], token_type: str) -> str:
        """The claims as a compact JWS."""
        header = {"alg": ALGORITHM, "kid": self.key_id, "typ": token_type}
        with warnings.catch_warnings():  # RFC 9864 prefers "Ed25519"; "EdDSA" is what every verifier knows today
            warnings.simplefilter("ignore", SecurityWarning)
            return jwt.encode(header, claims, self._key, algorithms=[ALGORITHM])

    def jwks(self) -> dict[str, list[dict[str, str]]]:
        """The published key set: the current key first, then the rotated-out ones."""
        return {"keys": [self._jwk, *self._previous]}
