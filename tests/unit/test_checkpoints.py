"""Checkpoints are C2SP checkpoint bodies in C2SP signed notes, signed with Ed25519."""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from eventlog.checkpoints import Checkpoint, CheckpointError, Signer, load_signing_key, open_checkpoint

SEED = bytes(range(32))
ROOT = hashlib.sha256(b"a root").digest()


def signer(name: str = "example.com/log") -> Signer:
    return Signer(name, Ed25519PrivateKey.from_private_bytes(SEED))


def test_a_signed_checkpoint_is_the_three_line_body_a_blank_line_and_one_signature_line() -> None:
    note = signer().sign(Checkpoint("example.com/log", 42, ROOT))
    body, signature = note.split("\n\n")
    assert body == f"example.com/log\n42\n{base64.b64encode(ROOT).decode()}"
    assert signature.startswith("\u2014 example.com/log ")
    raw = base64.b64decode(signature.split(" ")[2])
    public = Ed25519PrivateKey.from_private_bytes(SEED).public_key().public_bytes_raw()
    assert raw[:4] == hashlib.sha256(b"example.com/log\n\x01" + public).digest()[:4]
    assert len(raw) == 4 + 64
    assert open_checkpoint(note, signer().verifier_key()) == Checkpoint("example.com/log", 42, ROOT)


def test_the_verifier_key_names_the_key_its_id_and_the_public_key() -> None:
    name, key_id, encoded = signer().verifier_key().split("+", 2)
    public = Ed25519PrivateKey.from_private_bytes(SEED).public_key().public_bytes_raw()
    assert name == "example.com/log"
    assert base64.b64decode(encoded) == b"\x01" + public
    assert key_id == hashlib.sha256(b"example.com/log\n\x01" + public).digest()[:4].hex()


def test_a_changed_size_root_or_another_key_is_refused() -> None:
    note = signer().sign(Checkpoint("example.com/log", 42, ROOT))
    with pytest.raises(CheckpointError, match="does not verify"):
        open_checkpoint(note.replace("\n42\n", "\n43\n"), signer().verifier_key())
    stranger = Signer("example.com/log", Ed25519PrivateKey.generate())
    with pytest.raises(CheckpointError, match="no signature"):
        open_checkpoint(note, stranger.verifier_key())
    with pytest.raises(CheckpointError):
        open_checkpoint(note.split("\n\n")[0] + "\n", signer().verifier_key())


def test_a_key_name_with_a_space_or_a_plus_is_refused() -> None:
    for bad in ("", "my log", "a+b"):
        with pytest.raises(ValueError, match="key name"):
            signer(bad)


def test_the_development_key_is_generated_once_readable_by_its_owner_only(tmp_path: Path) -> None:
    key_file = tmp_path / "audit" / "log-signing.key"
    first = load_signing_key("", key_file)
    assert key_file.stat().st_mode & 0o777 == 0o600
    again = load_signing_key("", key_file)
    assert first.private_bytes_raw() == again.private_bytes_raw()
    configured = load_signing_key(base64.b64encode(SEED).decode(), key_file)
    assert configured.private_bytes_raw() == SEED
