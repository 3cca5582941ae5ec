"""RFC 9162 hashing and proofs: the published vectors, then every proof of every small tree."""

from __future__ import annotations

import hashlib

import pytest

from eventlog.merkle import (
    EMPTY_ROOT,
    MemoryTree,
    consistency_proof,
    inclusion_proof,
    leaf_hash,
    node_hash,
    verify_consistency,
    verify_inclusion,
)

# The inputs and roots of RFC 6962's reference tests (certificate-transparency's merkle_tree_test).
INPUTS = [
    b"",
    b"\x00",
    b"\x10",
    b"\x20\x21",
    b"\x30\x31",
    b"\x40\x41\x42\x43",
    b"\x50\x51\x52\x53\x54\x55\x56\x57",
    b"\x60\x61\x62\x63\x64\x65\x66\x67\x68\x69\x6a\x6b\x6c\x6d\x6e\x6f",
]
ROOTS = [
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
]
INCLUSION = {
    (0, 8): [
        "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
        "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
        "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
    ],
    (5, 8): [
        "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
        "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
        "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    ],
}
CONSISTENCY = {
    (2, 8): [
        "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
        "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
    ],
}


def reference_tree() -> MemoryTree:
    return MemoryTree(leaf_hash(data) for data in INPUTS)


def test_leaves_and_nodes_are_hashed_with_their_prefixes() -> None:
    assert leaf_hash(b"abc") == hashlib.sha256(b"\x00abc").digest()
    assert node_hash(b"l" * 32, b"r" * 32) == hashlib.sha256(b"\x01" + b"l" * 32 + b"r" * 32).digest()
    assert EMPTY_ROOT.hex() == ROOTS[0]


@pytest.mark.parametrize("size", range(len(ROOTS)))
def test_the_root_of_every_prefix_of_the_reference_tree_is_the_published_one(size: int) -> None:
    assert reference_tree().root(size).hex() == ROOTS[size]
    assert MemoryTree(leaf_hash(data) for data in INPUTS[:size]).root().hex() == ROOTS[size]


@pytest.mark.parametrize(("index", "size"), sorted(INCLUSION))
def test_inclusion_paths_are_the_published_ones(index: int, size: int) -> None:
    tree = reference_tree()
    proof = inclusion_proof(tree.node, index, size)
    assert [h.hex() for h in proof] == INCLUSION[(index, size)]
    assert verify_inclusion(leaf_hash(INPUTS[index]), index, size, proof, bytes.fromhex(ROOTS[size]))


@pytest.mark.parametrize(("old", "new"), sorted(CONSISTENCY))
def test_consistency_proofs_are_the_published_ones(old: int, new: int) -> None:
    tree = reference_tree()
    proof = consistency_proof(tree.node, old, new)
    assert [h.hex() for h in proof] == CONSISTENCY[(old, new)]
    assert verify_consistency(old, new, bytes.fromhex(ROOTS[old]), bytes.fromhex(ROOTS[new]), proof)


def test_every_inclusion_proof_of_every_tree_up_to_33_leaves_verifies_and_no_other_leaf_passes() -> None:
    tree = MemoryTree(leaf_hash(f"event {i}".encode()) for i in range(33))
    for size in range(1, 34):
        root = tree.root(size)
        for index in range(size):
            proof = inclusion_proof(tree.node, index, size)
            assert verify_inclusion(tree.node(0, index), index, size, proof, root)
            other = tree.node(0, (index + 1) % 33)
            assert not verify_inclusion(other, index, size, proof, root)
            assert not verify_inclusion(tree.node(0, index), index, size, proof, tree.root(size - 1))


def test_every_consistency_proof_up_to_33_leaves_verifies_and_a_rewritten_history_does_not() -> None:
    tree = MemoryTree(leaf_hash(f"event {i}".encode()) for i in range(33))
    for new in range(0, 34):
        for old in range(0, new + 1):
            proof = consistency_proof(tree.node, old, new)
            assert verify_consistency(old, new, tree.root(old), tree.root(new), proof)
            if old > 0:
                rewritten = MemoryTree(tree.node(0, i) for i in range(old - 1))
                rewritten.append(leaf_hash(b"a different last event"))
                assert not verify_consistency(old, new, rewritten.root(), tree.root(new), proof)
