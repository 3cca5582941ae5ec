"""Celery tasks: they take ids and primitives, are idempotent, and retry."""
