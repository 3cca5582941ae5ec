"""Nicknames: what may be one, the form that is kept, and the form that must be unique.

A nickname is shown to the support desk (it goes into the desk's sign-on token) and must not pass for another
customer's. So it is kept as NFKC (fullwidth letters and other compatibility forms folded into the ordinary ones),
trimmed, with runs of spaces made one; characters that cannot be seen or that reorder text (controls, zero-width
and bidi marks, fillers) are refused (-2); and scripts are mixed only as a writing system mixes them (Korean with
Hanja and Latin, Japanese with Han, kana and Latin, Chinese with Bopomofo and Latin: Unicode TS #39's "highly
restrictive" sets). Any other mix is refused when the ``confusable_homoglyphs`` library (the Unicode consortium's
confusables data) finds a letter that looks like one of the other script, such as Cyrillic "а" among Latin letters.
Uniqueness compares the kept form case-folded.
"""

from __future__ import annotations

import re
import unicodedata

from confusable_homoglyphs import categories, confusables

from domain.errors import DomainError, ErrorCode

NAME_MAX_LENGTH = 30

# Unicode categories no nickname needs: controls, format characters (zero-width spaces and joiners, bidi marks and
# isolates, the BOM, soft hyphens, tags), surrogates, private use, unassigned, line and paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
# Default-ignorable characters (invisible) that are not format characters, from Unicode's DerivedCoreProperties:
# the combining grapheme joiner, the Hangul fillers (U+3164 makes a "blank" Korean name), Khmer inherent vowels,
# Mongolian variation selectors, variation selectors but the two emoji presentation ones (dropped instead).
INVISIBLE = frozenset(
    {0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D, 0x180F, 0x3164, 0xFFA0}
    | set(range(0xFE00, 0xFE0E))
    | set(range(0xE0100, 0xE01F0))
)
# Emoji and text presentation selectors change how a symbol is drawn, not what it is: an emoji keyboard adds them.
PRESENTATION_SELECTORS = str.maketrans("", "", "\ufe0e\ufe0f")
WRITING_SYSTEMS = (
    frozenset({"HANGUL", "HAN", "LATIN"}),
    frozenset({"HIRAGANA", "KATAKANA", "HAN", "LATIN"}),
    frozenset({"BOPOMOFO", "HAN", "LATIN"}),
)
NO_SCRIPT = frozenset({"COMMON", "INHERITED"})
_SPACES = re.compile(r"\s+")


def clean_nickname(name: str) -> str:
    """The nickname as it is kept (see the module's docstring): -1 when nothing is left, -2 when it is too long,
    holds a character no nickname may hold, or mixes look-alike letters of different scripts."""
    folded = unicodedata.normalize("NFKC", name).translate(PRESENTATION_SELECTORS)
    for character in folded:
        if unicodedata.category(character) in REFUSED_CATEGORIES or ord(character) in INVISIBLE:
            raise DomainError(ErrorCode.INVALID_VALUE, f"name holds U+{ord(character):04X}")
    kept = _SPACES.sub(" ", folded).strip()
    if not kept:
        raise DomainError(ErrorCode.EMPTY_PARAMETER, "name")
    if len(kept) > NAME_MAX_LENGTH:
        raise DomainError(ErrorCode.INVALID_VALUE, "name too long")
    scripts = {categories.alias(character) for character in kept} - NO_SCRIPT
    mixed_as_written = len(scripts) <= 1 or any(scripts <= system for system in WRITING_SYSTEMS)
    if not mixed_as_written and confusables.is_dangerous(kept):
        raise DomainError(ErrorCode.INVALID_VALUE, "name mixes look-alike letters of different scripts")
    return kept


def nickname_key(name: str) -> str:
    """The form of a nickname that must be unique: NFKC, trimmed, spaces made one, case-folded (and NFKC again, as
    folding can undo it: Unicode's NFKC_Casefold)."""
    kept = _SPACES.sub(" ", unicodedata.normalize("NFKC", name).translate(PRESENTATION_SELECTORS)).strip()
    return unicodedata.normalize("NFKC", kept.casefold())
