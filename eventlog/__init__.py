"""The machinery of the event log: the eventsourcing ``EventLog`` application, the database beside it, tracking
and following (with the doorbell, page reads and connection pools), and the transparency log with finance's
``python -m eventlog.audit``. What the log stores, its contract, is ``events/``."""
