"""The test vectors the app teams get: current, answered as written by the reference verifier, and the valid ones
accepted (the forged ones refused) by an implementation we did not write (PyJWT)."""

from __future__ import annotations

import json
from typing import Any

import jwt
import pytest
from jwt import PyJWK

from verifier import licence_verifier
from verifier.make_vectors import VECTORS, render

FILE = json.loads(VECTORS.read_text(encoding="utf-8"))


def answer(vector: dict[str, Any]) -> str:
    try:
        licence_verifier.verify(
            vector["token"],
            FILE["jwks"],
            log_key=FILE["logKey"],
            now=vector["now"],
            min_tree_size=vector["minTreeSize"],
        )
    except licence_verifier.TokenRefusedError as refused:
        return refused.reason
    return "valid"


def test_the_vectors_file_is_what_the_generator_writes() -> None:
    assert VECTORS.read_text(encoding="utf-8") == render(), "run python -m verifier.make_vectors"


@pytest.mark.parametrize("vector", FILE["vectors"], ids=[v["name"] for v in FILE["vectors"]])
def test_the_reference_verifier_answers_every_vector_as_written(vector: dict[str, Any]) -> None:
    assert answer(vector) == vector["expect"]


@pytest.mark.parametrize("vector", FILE["vectors"], ids=[v["name"] for v in FILE["vectors"]])
def test_pyjwt_agrees_on_every_signature(vector: dict[str, Any]) -> None:
    keys = {key["kid"]: PyJWK(key) for key in FILE["jwks"]["keys"]}
    kid = jwt.get_unverified_header(vector["token"])["kid"]
    options = {"verify_exp": False, "verify_iat": False}  # the vectors are checked at their own "now"
    if kid not in keys:
        assert vector["expect"] == "unknown-key"
        return
    if vector["expect"] == "bad-signature":
        with pytest.raises(jwt.InvalidSignatureError):
            jwt.decode(vector["token"], keys[kid], algorithms=["EdDSA"], options=options)
        return
    claims = jwt.decode(vector["token"], keys[kid], algorithms=["EdDSA"], options=options)
    assert claims["licence"] == "0b7c5a8e-2f7d-4a51-9a55-3f0d8b0f6a11"
