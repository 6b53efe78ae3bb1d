"""Tablet pages of the cage, included by the tablet site's root (``casino_backoffice/floor_urls.py``)."""

from django.urls import path

from . import arrivals, counts, custody, day_close, variances

urlpatterns = [
    path("counts/", counts.count_page, name="cage-count"),
    path("counts/notice/", counts.notice_page, name="cage-notice"),
    path("counts/witness/", counts.witness_page, name="cage-witness"),
    path("counts/<int:count_id>/witness/", counts.witness_sign, name="cage-witness-sign"),
    path("tables/<int:table_id>/witness/", counts.witness_table_sign, name="cage-witness-table"),
    path("counts/recount/", counts.recount_page, name="cage-recount"),
    path("counts/<int:count_id>/recount/", counts.recount_sign, name="cage-recount-sign"),
    path("counts/surveillance/", custody.surveillance_page, name="cage-surveillance"),
    path("counts/surveillance/rows/", custody.surveillance_rows, name="cage-surveillance-rows"),
    path("custody/", custody.custody_page, name="cage-custody"),
    path("cage/arrivals/", arrivals.arrivals_page, name="cage-arrivals"),
    path("cage/transports/<int:transport_id>/account/", arrivals.account_sign, name="cage-account"),
    path("cage/transports/<int:transport_id>/missing/", arrivals.missing_box_sign, name="cage-missing-box"),
    path("cage/variances/", variances.variances_page, name="cage-variances"),
    path("cage/variances/<int:variance_id>/explain/", variances.variance_explain_sign, name="cage-variance-explain"),
    path("cage/gaming-days/", day_close.close_days_page, name="cage-close-days"),
    path("cage/gaming-days/close/", day_close.close_day_sign, name="cage-close-day-sign"),
]
