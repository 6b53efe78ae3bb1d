"""Tablet pages of irregularities, included by the tablet site's root (``casino_backoffice/floor_urls.py``)."""

from django.urls import path

from . import views

urlpatterns = [
    path("irregularities/report/", views.report_tables, name="irregularity-report"),
    path("irregularities/report/<int:table_id>/", views.report_page, name="irregularity-report-table"),
    path("irregularities/rule/", views.rule_page, name="irregularity-rule"),
    path("irregularities/<int:irregularity_id>/rule/", views.rule_sign, name="irregularity-rule-sign"),
    path("irregularities/", views.log_page, name="irregularity-log"),
]
