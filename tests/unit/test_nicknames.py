"""What may be a nickname, the form that is kept, and the form that must be unique."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.accounts.nicknames import clean_nickname, nickname_key
from domain.errors import DomainError, ErrorCode


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("  Paul Kim ", "Paul Kim"),
        ("Ｐａｕｌ　Ｋｉｍ", "Paul Kim"),  # fullwidth letters and the ideographic space folded by NFKC
        ("Paul \u00a0  Kim", "Paul Kim"),  # runs of spaces, no-break ones too, made one
        ("ﬁne", "fine"),  # a ligature
        ("김철수", "김철수"),
        ("김철수 Kim", "김철수 Kim"),  # Korean writes Hangul beside Latin
        ("山田タロウ", "山田タロウ"),  # Japanese writes Han beside kana
        ("ｶﾀｶﾅ", "カタカナ"),  # halfwidth kana
        ("Dëvid", "Dëvid"),
        ("Привет", "Привет"),  # one script, whichever it is
        ("❤️ Paul", "❤ Paul"),  # the emoji presentation selector an emoji keyboard adds is dropped
    ],
)
def test_a_nickname_is_kept_in_its_ordinary_form(typed: str, kept: str) -> None:
    assert clean_nickname(typed) == kept


@pytest.mark.parametrize(
    "typed",
    [
        "Pa\u200bul",  # zero-width space
        "Pa\u200dul",  # zero-width joiner
        "\u202eluaP",  # right-to-left override
        "Paul\u2066",  # bidi isolate
        "Pa\u00adul",  # soft hyphen
        "Pa\x07ul",  # a control
        "Paul\n",
        "\ufeffPaul",  # byte order mark
        "\u3164",  # the Hangul filler: a blank name
        "Pa\u034ful",  # combining grapheme joiner
        "Paul\ud800",  # a lone surrogate
        "Pa\x00ul",
        "Рaul",  # Cyrillic Р among Latin letters
        "pаypal",  # Cyrillic а
        "Αlpha",  # Greek Alpha
        "x" * 31,
    ],
)
def test_what_cannot_be_seen_reorders_text_or_passes_for_another_script_is_refused(typed: str) -> None:
    with pytest.raises(DomainError) as refused:
        clean_nickname(typed)
    assert refused.value.code is ErrorCode.INVALID_VALUE


@pytest.mark.parametrize("typed", ["", "   ", "\u3000"])
def test_nothing_left_is_an_empty_name(typed: str) -> None:
    with pytest.raises(DomainError) as refused:
        clean_nickname(typed)
    assert refused.value.code is ErrorCode.EMPTY_PARAMETER


def test_uniqueness_compares_the_kept_form_case_folded() -> None:
    assert nickname_key("Ｐａｕｌ  KIM") == nickname_key(" paul kim") == "paul kim"
    assert nickname_key("Straße") == nickname_key("STRASSE")
    assert nickname_key("김철수") != nickname_key("김철")


@given(st.text(max_size=40))
def test_any_text_is_either_refused_with_a_code_or_kept_as_a_stable_form(typed: str) -> None:
    try:
        kept = clean_nickname(typed)
    except DomainError as refused:
        code = refused.code
        kept = ""
    else:
        code = None
    if code is not None:
        assert code in (ErrorCode.EMPTY_PARAMETER, ErrorCode.INVALID_VALUE)
        return
    assert clean_nickname(kept) == kept, "keeping a kept name changes nothing"
    assert nickname_key(kept) == nickname_key(typed)
    assert 0 < len(kept) <= 30
