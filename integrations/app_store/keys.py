"""The App Store stand-in's test keys: a certificate chain shaped like Apple's (a root, an intermediate carrying
Apple's WWDR marker 1.2.840.113635.100.6.2.1, a leaf carrying the App Store receipt-signing marker
1.2.840.113635.100.6.11.1, all P-256), so `app-store-server-library` verifies what the stand-in signs exactly as it
verifies Apple's, only to a root the tests and `make run` trust instead of Apple's; and the key the App Store Server
API client signs its requests with.

Generated on first use into a folder (``var/stand-ins/app-store/`` for `make run`, a test's temporary folder in
tests), never shipped: no key that signs anything is in the source. Production never trusts them
(``APP_STORE_ROOT_CERTIFICATES`` must name Apple's root there).
"""

from __future__ import annotations

import base64
import os
import shutil
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

WWDR_MARKER = x509.ObjectIdentifier("1.2.840.113635.100.6.2.1")
RECEIPT_SIGNING_MARKER = x509.ObjectIdentifier("1.2.840.113635.100.6.11.1")
NOT_BEFORE = datetime(2000, 1, 1, tzinfo=UTC)  # the test clock may sit anywhere in this century
NOT_AFTER = datetime(2099, 12, 31, tzinfo=UTC)
_ASN1_NULL = b"\x05\x00"
FILES = ("root.pem", "intermediate.pem", "leaf.pem", "leaf-key.pem", "api-key.pem")
API_KEY_ID = "STANDIN001"
API_ISSUER_ID = "00000000-0000-0000-0000-000000000046"


def _name(common_name: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


def _certificate(
    subject: str,
    key: ec.EllipticCurvePrivateKey,
    issuer: str,
    issuer_key: ec.EllipticCurvePrivateKey,
    *,
    ca: bool,
    marker: x509.ObjectIdentifier | None,
) -> x509.Certificate:
    builder = (
        x509.CertificateBuilder()
        .subject_name(_name(subject))
        .issuer_name(_name(issuer))
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(NOT_BEFORE)
        .not_valid_after(NOT_AFTER)
        .add_extension(x509.BasicConstraints(ca=ca, path_length=0 if ca and marker else None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=not ca,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=ca,
                crl_sign=ca,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_key.public_key()), critical=False)
    )
    if marker is not None:
        builder = builder.add_extension(x509.UnrecognizedExtension(marker, _ASN1_NULL), critical=False)
    return builder.sign(issuer_key, hashes.SHA256())


def _key_pem(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


@dataclass(frozen=True)
class StandInKeys:
    """A test root, its chain and the signing key of its leaf, and the App Store Server API key."""

    root: x509.Certificate
    intermediate: x509.Certificate
    leaf: x509.Certificate
    leaf_key: ec.EllipticCurvePrivateKey
    api_key: ec.EllipticCurvePrivateKey

    @classmethod
    def generate(cls, name: str = "Unicorn stand-in") -> StandInKeys:
        """A fresh chain (a test's forger makes one of its own, which nobody trusts)."""
        root_key = ec.generate_private_key(ec.SECP256R1())
        intermediate_key = ec.generate_private_key(ec.SECP256R1())
        leaf_key = ec.generate_private_key(ec.SECP256R1())
        root_name, intermediate_name = f"{name} Root CA - G3", f"{name} Worldwide Developer Relations - G6"
        root = _certificate(root_name, root_key, root_name, root_key, ca=True, marker=None)
        intermediate = _certificate(
            intermediate_name, intermediate_key, root_name, root_key, ca=True, marker=WWDR_MARKER
        )
        leaf = _certificate(
            f"{name} Prod ECC App Store Receipt Signing",
            leaf_key,
            intermediate_name,
            intermediate_key,
            ca=False,
            marker=RECEIPT_SIGNING_MARKER,
        )
        return cls(root, intermediate, leaf, leaf_key, ec.generate_private_key(ec.SECP256R1()))

    @classmethod
    def load_or_create(cls, folder: Path) -> StandInKeys:
        """The keys kept in ``folder``, made there first if missing (two processes starting together agree: the
        first to write them wins, the other reads them)."""
        current = folder / "current"
        if not current.exists():
            folder.mkdir(parents=True, exist_ok=True)
            staging = folder / f".staging-{os.getpid()}"
            staging.mkdir(mode=0o700, exist_ok=True)
            for name, data in zip(FILES, cls.generate()._pems(), strict=True):
                (staging / name).write_bytes(data)
            try:
                staging.rename(current)  # atomic: the first process's keys win
            except OSError:
                shutil.rmtree(staging, ignore_errors=True)
        return cls.from_pems(*((current / name).read_bytes() for name in FILES))

    @classmethod
    def from_pems(cls, root: bytes, intermediate: bytes, leaf: bytes, leaf_key: bytes, api_key: bytes) -> StandInKeys:
        """Keys from their PEM files."""
        loaded_leaf_key = serialization.load_pem_private_key(leaf_key, password=None)
        loaded_api_key = serialization.load_pem_private_key(api_key, password=None)
        assert isinstance(loaded_leaf_key, ec.EllipticCurvePrivateKey)
        assert isinstance(loaded_api_key, ec.EllipticCurvePrivateKey)
        return cls(
            x509.load_pem_x509_certificate(root),
            x509.load_pem_x509_certificate(intermediate),
            x509.load_pem_x509_certificate(leaf),
            loaded_leaf_key,
            loaded_api_key,
        )

    def _pems(self) -> tuple[bytes, ...]:
        return (
            self.root.public_bytes(serialization.Encoding.PEM),
            self.intermediate.public_bytes(serialization.Encoding.PEM),
            self.leaf.public_bytes(serialization.Encoding.PEM),
            _key_pem(self.leaf_key),
            _key_pem(self.api_key),
        )

    @property
    def root_der(self) -> bytes:
        """The root as the verifier takes it."""
        return self.root.public_bytes(serialization.Encoding.DER)

    @property
    def x5c(self) -> list[str]:
        """The chain as a JWS header carries it: leaf, intermediate, root (base64 DER)."""
        return [
            base64.b64encode(cert.public_bytes(serialization.Encoding.DER)).decode()
            for cert in (self.leaf, self.intermediate, self.root)
        ]

    @property
    def api_key_pem(self) -> bytes:
        """The App Store Server API key (what App Store Connect lets you download as a .p8)."""
        return _key_pem(self.api_key)
