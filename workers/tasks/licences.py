"""The seats that free themselves: beat's daily pass releases devices unseen for 30 days."""

from __future__ import annotations

import logging

from celery import shared_task

from bootstrap import Services
from domain.licences.app_licensing import release_idle_devices, shortest_idle_release
from projections.licences import licences_with_idle_devices
from workers.celery_app import ServicesTask

log = logging.getLogger(__name__)


def sweep_idle_devices(services: Services) -> dict[str, list[str]]:
    """Release every seat held by a device unseen for its plan's time (30 days unless the catalogue says otherwise):
    the released devices by licence.

    The view names the candidates; the licence aggregate decides again on its own state, so a device seen since
    the view was written keeps its seat, and a repeated pass releases nothing twice.
    """
    released: dict[str, list[str]] = {}
    unseen_since = services.clock.now() - shortest_idle_release(services.catalogue)
    for user_licence_id in licences_with_idle_devices(services.views, unseen_since):
        try:
            devices = release_idle_devices(services.store, services.clock, services.catalogue, user_licence_id)
        except Exception:  # one stuck licence must not stop the pass; the next run tries again
            log.exception("could not release the idle devices of %s", user_licence_id)
            continue
        if devices:
            released[str(user_licence_id)] = devices
    return released


@shared_task(name="licences.release_idle_devices", base=ServicesTask, bind=True)
def release_idle_devices_task(self: ServicesTask) -> dict[str, list[str]]:
    """Beat: every hour, free the seats of devices unseen for 30 days (recorded as licence.DeviceReleased)."""
    return sweep_idle_devices(self.services)
