"""``python -m operations.backup save|restore DIR``: the log, the views and the Merkle tables, copied out and back.

What is copied is everything the store holds: the event log, the Merkle tree (``merkle_leaves``, ``merkle_nodes``),
the signed checkpoints (``log_checkpoints``), the views and their positions.

- PostgreSQL keeps them all in one database: ``save`` runs ``pg_dump --format=custom`` (one consistent snapshot)
  into ``DIR/storefront.dump``; ``restore`` runs ``pg_restore`` into the (new, empty) database ``DATABASE_URL``
  names.
- SQLite keeps the log, the tree and the checkpoints in ``events.sqlite3`` and the views in ``views.sqlite3``:
  ``save`` copies each with SQLite's online backup, which is safe while the processes run. The views are copied
  first, so a restored view is never ahead of the restored log (the projector catches it up); ``restore`` copies
  them into ``APP_VAR_DIR``, which must not hold them yet.

Secrets and signing keys are not copied: they belong in the secret store, not beside the data.
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from config.settings import Settings, load_settings

DUMP = "storefront.dump"
LOG_FILE = "events.sqlite3"
VIEWS_FILE = "views.sqlite3"


def libpq_url(database_url: str) -> str:
    """DATABASE_URL without its query (``pool_size`` and ``max_overflow`` are ours; libpq refuses them)."""
    parts = urlsplit(database_url)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))


def save(settings: Settings, target: Path) -> list[Path]:
    """Copy the store into ``target``; the files written."""
    target.mkdir(parents=True, exist_ok=True)
    if settings.uses_postgres:
        dump = target / DUMP
        _postgres_tool("pg_dump", "--format=custom", "--no-owner", f"--file={dump}", libpq_url(settings.database_url))
        return [dump]
    written = []
    for name in (VIEWS_FILE, LOG_FILE):  # views first: never ahead of the log they were built from
        if name == VIEWS_FILE and not (settings.var_dir / name).exists():
            continue  # no view was ever built here; a restore rebuilds them from the log
        written.append(_sqlite_backup(settings.var_dir / name, target / name))
    return written


def restore(settings: Settings, source: Path) -> None:
    """Put a copy ``save`` made back into the store the settings name (an empty database, or a var/ without it)."""
    if settings.uses_postgres:
        _postgres_tool(
            "pg_restore",
            "--no-owner",
            "--exit-on-error",
            f"--dbname={libpq_url(settings.database_url)}",
            str(source / DUMP),
        )
        return
    settings.var_dir.mkdir(parents=True, exist_ok=True)
    for name in (LOG_FILE, VIEWS_FILE):
        if (settings.var_dir / name).exists():
            raise FileExistsError(f"{settings.var_dir / name} exists: restore into an APP_VAR_DIR without it")
    for name in (LOG_FILE, VIEWS_FILE):
        if (source / name).exists():
            shutil.copyfile(source / name, settings.var_dir / name)


def _postgres_tool(name: str, *arguments: str) -> None:
    """Run PostgreSQL's own client tool (Debian's postgresql-client) with our arguments, no shell."""
    tool = shutil.which(name)
    if tool is None:
        raise FileNotFoundError(f"{name} is missing: install PostgreSQL's client tools (postgresql-client)")
    subprocess.run([tool, *arguments], check=True)  # noqa: S603 (our arguments, no shell)


def _sqlite_backup(database: Path, copy: Path) -> Path:
    if not database.exists():
        raise FileNotFoundError(f"{database}: no such store (is APP_VAR_DIR right?)")
    copy.unlink(missing_ok=True)
    source, destination = sqlite3.connect(database), sqlite3.connect(copy)
    try:
        source.backup(destination)
    finally:
        destination.close()
        source.close()
    return copy


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point."""
    parser = argparse.ArgumentParser(
        prog="python -m operations.backup", description="copy the log, views and Merkle tables out, or back in"
    )
    parser.add_argument("action", choices=("save", "restore"))
    parser.add_argument("directory", type=Path)
    args = parser.parse_args(argv)
    settings = load_settings()
    if args.action == "save":
        for path in save(settings, args.directory):
            print(f"saved {path}")
    else:
        restore(settings, args.directory)
        print(f"restored {args.directory} into the {settings.store_kind} store")
    return 0


if __name__ == "__main__":
    sys.exit(main())
