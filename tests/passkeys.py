"""A software authenticator for tests: it answers WebAuthn ceremonies (``navigator.credentials.create`` and
``.get``) as a platform passkey would, with an ECDSA P-256 key made by ``cryptography``, a "none" attestation and a
counter, so the server's passkey code is tested without a browser. Only what a real authenticator signs is real
here; nothing of the server's is faked."""

from __future__ import annotations

import hashlib
import json
import os
import struct
from dataclasses import dataclass, field
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from webauthn.helpers import bytes_to_base64url

USER_PRESENT = 0x01
USER_VERIFIED = 0x04
ATTESTED_DATA = 0x40


def _b64(data: bytes) -> str:
    return bytes_to_base64url(data)


@dataclass
class SoftAuthenticator:
    """One passkey on one device: its key pair, credential id and signature counter."""

    origin: str
    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    credential_id: bytes = field(default_factory=lambda: os.urandom(16))
    sign_count: int = 0
    user_handle: bytes | None = None

    def _client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        data = {"type": kind, "challenge": challenge, "origin": origin or self.origin, "crossOrigin": False}
        return json.dumps(data, separators=(",", ":")).encode()

    def _cose_key(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        return bytes(
            cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")})
        )

    def create(self, options: dict[str, Any], *, origin: str | None = None) -> dict[str, Any]:
        """The browser's answer to ``navigator.credentials.create(options)`` (RegistrationResponseJSON)."""
        rp_hash = hashlib.sha256(options["rp"]["id"].encode()).digest()
        self.user_handle = str(options["user"]["id"]).encode()
        attested = bytes(16) + struct.pack(">H", len(self.credential_id)) + self.credential_id + self._cose_key()
        flags = USER_PRESENT | USER_VERIFIED | ATTESTED_DATA
        auth_data = rp_hash + bytes([flags]) + struct.pack(">I", self.sign_count) + attested
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        client_data = self._client_data("webauthn.create", options["challenge"], origin)
        return {
            "id": _b64(self.credential_id),
            "rawId": _b64(self.credential_id),
            "type": "public-key",
            "response": {"clientDataJSON": _b64(client_data), "attestationObject": _b64(attestation)},
            "clientExtensionResults": {},
        }

    def get(
        self,
        options: dict[str, Any],
        *,
        origin: str | None = None,
        rp_id: str | None = None,
        count: bool = True,
        verified: bool = True,
    ) -> dict[str, Any]:
        """The browser's answer to ``navigator.credentials.get(options)`` (AuthenticationResponseJSON): the
        authenticator data and client data signed with the passkey's key. ``count`` False replays the counter (as a
        cloned authenticator would, or one that keeps it at 0); ``verified`` False: only a touch, no PIN or face."""
        if count:
            self.sign_count += 1
        rp_hash = hashlib.sha256((rp_id or options["rpId"]).encode()).digest()
        flags = USER_PRESENT | (USER_VERIFIED if verified else 0)
        auth_data = rp_hash + bytes([flags]) + struct.pack(">I", self.sign_count)
        client_data = self._client_data("webauthn.get", options["challenge"], origin)
        signature = self.key.sign(auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256()))
        return {
            "id": _b64(self.credential_id),
            "rawId": _b64(self.credential_id),
            "type": "public-key",
            "response": {
                "clientDataJSON": _b64(client_data),
                "authenticatorData": _b64(auth_data),
                "signature": _b64(signature),
                "userHandle": _b64(self.user_handle or b""),
            },
            "clientExtensionResults": {},
        }
