"""The composition root: the one place that builds a process's services from settings.

The API, the Celery worker, the reactor, the projector and the operator CLI each
call ``Services.build`` once when they start (a worker's pool process on its first
task); nothing is built at import time.
"""

from bootstrap.services import Services

__all__ = ["Services"]
