"""Google Play's stand-in's test keys: the key it signs Pub/Sub push tokens with (Google's, in real life; published as
Google publishes its keys) and the service account's key our adapter asks the Developer API with. Generated on first
use into a folder (``var/stand-ins/google-play/``, a test's temporary folder), never shipped; production never uses
them."""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

PUSH_KEY_ID = "standin-push-1"
SERVICE_ACCOUNT = "play-api@unicornpro-standin.iam.gserviceaccount.com"
PUSH_ACCOUNT = "rtdn-push@unicornpro-standin.iam.gserviceaccount.com"


def _pem(key: rsa.RSAPrivateKey) -> bytes:
    encoding, pkcs8 = serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8
    return key.private_bytes(encoding, pkcs8, serialization.NoEncryption())


@dataclass(frozen=True)
class StandInKeys:
    """The key the stand-in signs push tokens with (Google's, in real life) and the service account's key."""

    push_key: rsa.RSAPrivateKey
    account_key: rsa.RSAPrivateKey

    @classmethod
    def generate(cls) -> StandInKeys:
        """Fresh keys (a test's forger makes its own, which nobody trusts)."""
        return cls(
            rsa.generate_private_key(public_exponent=65537, key_size=2048),
            rsa.generate_private_key(public_exponent=65537, key_size=2048),
        )

    @classmethod
    def load_or_create(cls, folder: Path) -> StandInKeys:
        """The keys kept in ``folder``, made there first if missing (the first process to write them wins)."""
        current = folder / "current"
        if not current.exists():
            folder.mkdir(parents=True, exist_ok=True)
            staging = folder / f".staging-{os.getpid()}"
            staging.mkdir(mode=0o700, exist_ok=True)
            made = cls.generate()
            (staging / "push-key.pem").write_bytes(_pem(made.push_key))
            (staging / "account-key.pem").write_bytes(_pem(made.account_key))
            try:
                staging.rename(current)
            except OSError:
                shutil.rmtree(staging, ignore_errors=True)
        keys = [
            serialization.load_pem_private_key((current / n).read_bytes(), None)
            for n in ("push-key.pem", "account-key.pem")
        ]
        assert all(isinstance(key, rsa.RSAPrivateKey) for key in keys)
        return cls(keys[0], keys[1])  # type: ignore[arg-type]

    def service_account_info(self, token_uri: str) -> dict[str, str]:
        """The service account's JSON key file, its token endpoint the stand-in's."""
        return {
            "type": "service_account",
            "project_id": "unicornpro-standin",
            "private_key_id": "standin-account-1",
            "private_key": _pem(self.account_key).decode(),
            "client_email": SERVICE_ACCOUNT,
            "client_id": "46",
            "token_uri": token_uri,
        }

    def jwks(self) -> dict[str, Any]:
        """The push-signing key as Google publishes its keys."""
        jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(self.push_key.public_key()))
        return {"keys": [{**jwk, "kid": PUSH_KEY_ID, "alg": "RS256", "use": "sig"}]}
