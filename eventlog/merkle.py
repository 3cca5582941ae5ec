"""RFC 9162 Merkle tree hashing, proofs and their verification (section 2.1), over stored subtree hashes.

A tree of ``n`` leaves is read through a ``NodeReader`` that returns the hash of a *complete* subtree:
``node(level, index)`` covers leaves ``[index * 2**level, (index + 1) * 2**level)``; level 0 is the leaves.
Every subtree the RFC's recursion needs is either complete and aligned (one read) or split at the largest
power of two below its size, so roots and proofs of any size cost O(log² n) reads of stored nodes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence

LEAF_PREFIX = b"\x00"
NODE_PREFIX = b"\x01"
EMPTY_ROOT = hashlib.sha256(b"").digest()

NodeReader = Callable[[int, int], bytes]


def leaf_hash(data: bytes) -> bytes:
    """``SHA-256(0x00 || data)``."""
    return hashlib.sha256(LEAF_PREFIX + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """``SHA-256(0x01 || left || right)``."""
    return hashlib.sha256(NODE_PREFIX + left + right).digest()


def _split(size: int) -> int:
    """The largest power of two smaller than ``size`` (size > 1)."""
    return 1 << ((size - 1).bit_length() - 1)


def subtree_hash(node: NodeReader, start: int, size: int) -> bytes:
    """MTH of leaves ``[start, start + size)``; ``start`` is a multiple of the largest power of two <= size."""
    if size == 0:
        return EMPTY_ROOT
    if size & (size - 1) == 0:
        level = size.bit_length() - 1
        return node(level, start >> level)
    k = _split(size)
    return node_hash(subtree_hash(node, start, k), subtree_hash(node, start + k, size - k))


def root_hash(node: NodeReader, size: int) -> bytes:
    """The root of the tree's first ``size`` leaves."""
    return subtree_hash(node, 0, size)


def inclusion_proof(node: NodeReader, index: int, size: int) -> list[bytes]:
    """PATH(index, D[size]) of RFC 9162 2.1.3.1: the audit path, leaf side first."""
    if not 0 <= index < size:
        raise ValueError(f"leaf {index} is not in a tree of {size}")
    proof: list[bytes] = []
    start = 0
    while size > 1:
        k = _split(size)
        if index < k:
            proof.append(subtree_hash(node, start + k, size - k))
            size = k
        else:
            proof.append(subtree_hash(node, start, k))
            start, index, size = start + k, index - k, size - k
    proof.reverse()
    return proof


def consistency_proof(node: NodeReader, old_size: int, new_size: int) -> list[bytes]:
    """PROOF(old_size, D[new_size]) of RFC 9162 2.1.4.1 (empty when old_size is 0 or equal)."""
    if not 0 <= old_size <= new_size:
        raise ValueError(f"no consistency proof from {old_size} to {new_size}")
    if old_size in (0, new_size):
        return []
    proof: list[bytes] = []
    start, m, n, complete = 0, old_size, new_size, True
    while m != n:
        k = _split(n)
        if m <= k:
            proof.append(subtree_hash(node, start + k, n - k))
            n = k
        else:
            proof.append(subtree_hash(node, start, k))
            start, m, n, complete = start + k, m - k, n - k, False
    if not complete:
        proof.append(subtree_hash(node, start, m))
    proof.reverse()
    return proof


def verify_inclusion(leaf: bytes, index: int, size: int, proof: Sequence[bytes], root: bytes) -> bool:
    """RFC 9162 2.1.3.2: does ``proof`` place ``leaf`` at ``index`` of the tree of ``size`` with ``root``?"""
    if not 0 <= index < size:
        return False
    fn, sn, r = index, size - 1, leaf
    for p in proof:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            if not fn & 1:
                while fn and not fn & 1:
                    fn, sn = fn >> 1, sn >> 1
        else:
            r = node_hash(r, p)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and r == root


def verify_consistency(old_size: int, new_size: int, old_root: bytes, new_root: bytes, proof: Sequence[bytes]) -> bool:
    """RFC 9162 2.1.4.2: is the tree of ``old_size`` with ``old_root`` a prefix of the one with ``new_root``?"""
    if not 0 <= old_size <= new_size:
        return False
    if old_size == new_size:
        return not proof and old_root == new_root
    if old_size == 0:
        return not proof
    if not proof:
        return False
    path = list(proof)
    if old_size & (old_size - 1) == 0:
        path.insert(0, old_root)
    fn, sn = old_size - 1, new_size - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            if not fn & 1:
                while fn and not fn & 1:
                    fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and fr == old_root and sr == new_root


class MemoryTree:
    """A tree kept in memory: the reference the stored tree is tested against, and the verifier's recomputation."""

    def __init__(self, leaves: Iterable[bytes] = ()) -> None:
        self.levels: list[list[bytes]] = [[]]
        for leaf in leaves:
            self.append(leaf)

    @property
    def size(self) -> int:
        """How many leaves the tree has."""
        return len(self.levels[0])

    def append(self, leaf: bytes) -> list[tuple[int, int, bytes]]:
        """Add a leaf hash; returns every node it completes as ``(level, index, hash)``, the leaf first."""
        completed = [(0, len(self.levels[0]), leaf)]
        self.levels[0].append(leaf)
        level = 0
        while len(self.levels[level]) % 2 == 0:
            below = self.levels[level]
            if len(self.levels) == level + 1:
                self.levels.append([])
            parent = node_hash(below[-2], below[-1])
            self.levels[level + 1].append(parent)
            completed.append((level + 1, len(self.levels[level + 1]) - 1, parent))
            level += 1
        return completed

    def node(self, level: int, index: int) -> bytes:
        """A complete subtree's hash."""
        return self.levels[level][index]

    def root(self, size: int | None = None) -> bytes:
        """The root of the first ``size`` leaves (all by default)."""
        return root_hash(self.node, self.size if size is None else size)
