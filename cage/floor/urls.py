"""Tablet pages of the cage, included by the tablet site's root (``casino_backoffice/floor_urls.py``)."""

from django.urls import path

from . import day_close, views

urlpatterns = [
    path("counts/", views.count_page, name="cage-count"),
    path("counts/notice/", views.notice_page, name="cage-notice"),
    path("counts/witness/", views.witness_page, name="cage-witness"),
    path("counts/<int:count_id>/witness/", views.witness_sign, name="cage-witness-sign"),
    path("counts/recount/", views.recount_page, name="cage-recount"),
    path("counts/<int:count_id>/recount/", views.recount_sign, name="cage-recount-sign"),
    path("counts/surveillance/", views.surveillance_page, name="cage-surveillance"),
    path("counts/surveillance/rows/", views.surveillance_rows, name="cage-surveillance-rows"),
    path("custody/", views.custody_page, name="cage-custody"),
    path("cage/arrivals/", views.arrivals_page, name="cage-arrivals"),
    path("cage/transports/<int:transport_id>/account/", views.account_sign, name="cage-account"),
    path("cage/transports/<int:transport_id>/missing/", views.missing_box_sign, name="cage-missing-box"),
    path("cage/gaming-days/", day_close.close_days_page, name="cage-close-days"),
    path("cage/gaming-days/close/", day_close.close_day_sign, name="cage-close-day-sign"),
]
