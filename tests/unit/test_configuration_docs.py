"""docs/configuration.md is the settings' reference: generated from config/settings.py, every setting described."""

from __future__ import annotations

from config import docs
from config.settings import Settings


def test_every_setting_and_every_procfile_variable_has_a_description_and_no_description_is_stale() -> None:
    settings = {str(field.alias) for field in Settings.model_fields.values()}
    assert set(docs.DESCRIPTIONS) == settings, "config/docs.py describes exactly the settings"
    assert all(len(text) > 20 for text in docs.DESCRIPTIONS.values())
    assert set(docs.PROCESS_DESCRIPTIONS) == set(docs.procfile_variables())


def test_the_committed_reference_is_what_the_settings_make_now() -> None:
    assert docs.TARGET.read_text(encoding="utf-8") == docs.render(), "run `python -m config.docs` and commit"
