"""Which event banner and notice a visitor sees: active, in its window, in its countries, and an event
banner of a coupon group only with that group's code."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from uuid import uuid4

from domain.banners.board import change_banner, post_banner, showing
from domain.business_time import BUSINESS_TIME
from domain.errors import ErrorCode
from tests.fakes import in_memory_store
from tests.support import START
from tests.unit.billing_world import refused

NOW = START  # 2026-11-01 09:00 in Korea


def banner(**fields: Any) -> dict[str, Any]:
    return {
        "type": "event",
        "active": True,
        "start_at": NOW - timedelta(days=1),
        "end_at": NOW + timedelta(days=1),
        "localizations": [{"lang_code": "ko", "text": "이벤트"}],
        **fields,
    }


def test_a_notice_shows_for_its_whole_days_in_korean_time() -> None:
    store = in_memory_store()
    noon = NOW.astimezone(BUSINESS_TIME).replace(hour=12)
    notice = post_banner(store, NOW, banner(type="notice", start_at=noon, end_at=noon + timedelta(hours=1)))
    assert notice.window == (noon.replace(hour=0), noon.replace(hour=23, minute=59, second=59))
    assert showing(store, NOW, "KR", None).notice == notice, "09:00 is inside the notice's day"
    assert showing(store, NOW + timedelta(days=1), "KR", None).notice is None


def test_a_banner_shows_only_when_active_in_its_window_and_its_countries() -> None:
    store = in_memory_store()
    first = post_banner(store, NOW, banner(apply_country=["KR"]))
    assert showing(store, NOW, "KR", None).event_banner == first
    assert showing(store, NOW, "US", None).event_banner is None
    assert showing(store, NOW + timedelta(days=2), "KR", None).event_banner is None
    change_banner(store, NOW, first.id, {"active": False})
    assert showing(store, NOW, "KR", None).event_banner is None
    post_banner(store, NOW, banner(start_at=None, end_at=None, text="no dates"))
    assert showing(store, NOW, "KR", None).event_banner is None, "without a start, a banner needs an end ahead"


def test_a_coupon_groups_banner_shows_only_to_visitors_with_its_code() -> None:
    store = in_memory_store()
    group = uuid4()
    general = post_banner(store, NOW, banner())
    advertised = post_banner(store, NOW, banner(coupon_group_id=group))
    assert showing(store, NOW, "KR", None).event_banner == general
    assert showing(store, NOW, "KR", group).event_banner == advertised
    assert showing(store, NOW, "KR", uuid4()).event_banner == general


def test_a_banner_links_to_https_or_this_site_in_plain_colours_with_our_images_or_https_ones() -> None:
    store = in_memory_store()
    good = {
        "lang_code": "ko",
        "url": "/ko/purchase?code=YEAR20",
        "text_color": "#2d1f6B",
        "pc_image_url": f"/web/unicornpro/v1/event-banners/images/{'a' * 32}.png",
        "mobile_image_url": "https://cdn.example/m.png",
    }
    posted = post_banner(
        store, NOW, banner(localizations=[good, {**good, "lang_code": "en", "url": "https://x.example/a"}])
    )
    for field, bad in [
        ("url", "javascript:alert(1)"),
        ("url", "//evil.example/"),
        ("url", "http://plain.example/"),
        ("url", "https://user:pw@evil.example/"),
        ("url", "/ko/\tjavascript:"),
        ("background_color", "red;background:url(javascript:alert(1))"),
        ("close_button_color", "#fff"),
        ("background_image_url", "http://evil.example/x.png"),
        ("pc_image_url", "/web/unicornpro/v1/reports/images/x.png"),
        ("mobile_image_url", "data:image/png;base64,AAAA"),
    ]:
        with refused(ErrorCode.INVALID_VALUE):
            post_banner(store, NOW, banner(localizations=[{**good, field: bad}]))
        with refused(ErrorCode.INVALID_VALUE):
            change_banner(store, NOW, posted.id, {"localizations": [{**good, field: bad}]})
    assert change_banner(store, NOW, posted.id, {"active": False}).localizations == posted.localizations
