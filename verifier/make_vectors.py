"""Writes verifier/test-vectors.json: tokens signed as the store signs them, with fixed keys, times and a small log,
and what every verifier must answer for each (``python -m verifier.make_vectors``; a test checks the file is
current and that verifier/licence_verifier.py answers each as written)."""

from __future__ import annotations

import base64
import hashlib
import json
import sys
from pathlib import Path
from typing import Any
from uuid import UUID

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from joserfc import jwt

from eventlog.checkpoints import Checkpoint, Signer
from eventlog.merkle import MemoryTree, inclusion_proof, leaf_hash
from eventlog.transparency import canonical_record
from integrations.licence_signing import ALGORITHM, LicenceSigner

VECTORS = Path(__file__).with_name("test-vectors.json")
LICENCE = UUID("0b7c5a8e-2f7d-4a51-9a55-3f0d8b0f6a11")
ISSUED = 1_800_000_000
DAY = 86_400


def _log() -> tuple[Signer, dict[str, Any]]:
    """A log of five events, the licence's latest at index 3, and its signed checkpoint and proof."""
    signer = Signer("vectors.example/log", Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"log").digest()))
    records = [
        canonical_record(LICENCE if n == 3 else UUID(int=n), 1, "licence.Granted", b'{"n":%d}' % n, n + 1)
        for n in range(5)
    ]
    tree = MemoryTree(leaf_hash(record) for record in records)
    size = tree.size
    note = signer.sign(Checkpoint(signer.name, size, tree.root()))
    return signer, {
        "checkpoint": note,
        "size": size,
        "root": tree.root().hex(),
        "leafIndex": 3,
        "record": records[3].decode("ascii"),
        "proof": [h.hex() for h in inclusion_proof(tree.node, 3, size)],
        "current": True,
    }


def _claims(log: dict[str, Any] | None) -> dict[str, Any]:
    return {
        "iss": "https://store.example",
        "sub": str(LICENCE),
        "iat": ISSUED,
        "exp": ISSUED + 14 * DAY,
        "licence": str(LICENCE),
        "device": "a3f1c2d4-pixel-8",
        "product": "uncpa",
        "status": "valid",
        "entitlements": ["basic", "https", "pro", "devices:3"],
        "paidUntil": ISSUED + 365 * DAY,
        "graceSeconds": 14 * DAY,
        "log": log,
    }


def _signed(signer: LicenceSigner, claims: dict[str, Any], kid: str | None = None) -> str:
    header = {"alg": ALGORITHM, "kid": kid or signer.key_id, "typ": "unicornpro-licence+jwt"}
    return jwt.encode(header, claims, signer._key, algorithms=[ALGORITHM])


def _tampered(token: str) -> str:
    header, payload, signature = token.split(".")
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    claims["entitlements"].append("devices:99")
    forged = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
    return f"{header}.{forged}.{signature}"


def vectors() -> dict[str, Any]:
    """Every vector, with the keys they are checked against."""
    current, previous, stranger = (LicenceSigner(f"vectors {name} key, not a secret") for name in ("now", "old", "x"))
    old_public = base64.urlsafe_b64encode(previous.public_key).rstrip(b"=").decode()
    rotated = LicenceSigner("vectors now key, not a secret", [old_public])
    log_signer, log = _log()
    good = _signed(current, _claims(log))
    bad_proof = {**log, "proof": [log["proof"][0][::-1], *log["proof"][1:]]}
    at = ISSUED + 3600
    cases = [
        ("valid", good, at, 0, "valid"),
        ("valid, signed by a key rotated out", _signed(previous, _claims(log)), at, 0, "valid"),
        ("expired: past the offline grace", good, ISSUED + 14 * DAY, 0, "expired"),
        ("expired: past the paid time", _signed(current, {**_claims(log), "paidUntil": ISSUED + 60}), at, 0, "expired"),
        ("wrong key: signed by a key not published, under the current key id", _signed(stranger, _claims(log),
                                                                                          current.key_id), at, 0,
         "bad-signature"),
        ("unknown key id", _signed(stranger, _claims(log)), at, 0, "unknown-key"),
        ("tampered claim", _tampered(good), at, 0, "bad-signature"),
        ("stale checkpoint: the app has seen a larger tree", good, at, log["size"] + 1, "stale-checkpoint"),
        ("no log proof while the app has seen a checkpoint", _signed(current, _claims(None)), at, 1,
         "stale-checkpoint"),
        ("bad inclusion proof", _signed(current, _claims(bad_proof)), at, 0, "bad-log-proof"),
    ]  # fmt: skip
    return {
        "jwks": rotated.jwks(),
        "logKey": log_signer.verifier_key(),
        "vectors": [
            {"name": name, "token": token, "now": now, "minTreeSize": min_size, "expect": expect}
            for name, token, now, min_size, expect in cases
        ],
    }


def render() -> str:
    """The vectors file's text."""
    return json.dumps(vectors(), indent=2) + "\n"


if __name__ == "__main__":
    VECTORS.write_text(render(), encoding="utf-8")
    sys.stdout.write(f"wrote {VECTORS}\n")
