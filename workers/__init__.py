"""Celery worker, beat schedule, tasks, and the reactor that starts tasks from the log."""
