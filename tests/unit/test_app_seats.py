"""Seats an app holds: seen at most once a day, and given up when unseen for the plan's time."""

from __future__ import annotations

from datetime import timedelta

from domain.catalogue.licences import Catalogue
from domain.licences.app_licensing import release_idle_devices, shortest_idle_release, validate_device
from domain.licences.licence import Standing
from domain.licences.management import activate_device
from tests.unit.billing_world import ANNUAL_3, World


def _with_idle_days(catalogue: Catalogue, licence_id: int, days: int) -> Catalogue:
    plans = tuple(
        plan.model_copy(update={"idle_release_days": days}) if plan.id == licence_id else plan
        for plan in catalogue.licences
    )
    return catalogue.model_copy(update={"licences": plans})


def test_a_plan_that_frees_seats_after_a_week_does_so_and_others_keep_thirty_days(world: World) -> None:
    weekly = _with_idle_days(world.catalogue, ANNUAL_3, 7)
    assert shortest_idle_release(weekly) == timedelta(days=7)
    assert shortest_idle_release(world.catalogue) == timedelta(days=30)
    bought = world.buy(ANNUAL_3, email="guest@example.com")
    for device in ("tab", "phone"):
        activate_device(world.store, world.clock, licence_key=bought.licence_key, device_id=device,
                        device_name=device, platform="android")  # fmt: skip
    world.clock.advance(timedelta(days=6))
    validate_device(world.store, world.clock, licence_key=bought.licence_key, device_id="phone", platform="android")
    world.clock.advance(timedelta(days=1))
    assert release_idle_devices(world.store, world.clock, world.catalogue, bought.user_licence_id) == []
    assert release_idle_devices(world.store, world.clock, weekly, bought.user_licence_id) == ["tab"]
    seen = validate_device(world.store, world.clock, licence_key=bought.licence_key, device_id="tab", platform="ios")
    assert seen.standing is Standing.OTHER_PLATFORM
    again = validate_device(
        world.store, world.clock, licence_key=bought.licence_key, device_id="tab", platform="android"
    )
    assert again.standing is Standing.DEVICE_RELEASED
