"""``python -m api.openapi``: print the API's OpenAPI document (for the web app's typed client)."""

from __future__ import annotations

import json
import sys
import tempfile

from api.app import create_app
from config.settings import Settings


def openapi_document() -> dict[str, object]:
    """The OpenAPI document, built against a throwaway embedded store."""
    with tempfile.TemporaryDirectory() as var_dir:
        settings = Settings(APP_VAR_DIR=var_dir)
        app = create_app(settings)
        document = app.openapi()
        app.state.services.close()
        return document


if __name__ == "__main__":
    json.dump(openapi_document(), sys.stdout, indent=2, sort_keys=True, ensure_ascii=False)
    sys.stdout.write("\n")
