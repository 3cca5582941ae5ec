"""The operator's tools over a whole site: ``python -m operations.stack`` runs every process of the embedded
default under supervisord (``make run``, the e2e stack), and ``python -m operations.backup save|restore`` copies the
log, the views and the Merkle tables out and back in (docs/runbook.md)."""
