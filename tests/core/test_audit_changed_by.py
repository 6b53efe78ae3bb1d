"""The audit history names who changed a record (issue 27, item 4: it read "Changed by: None"): the
signed-in person of a page or the API, else (the demo loader, a task, a shell) the person the service
acted for; a Celery task never lends its person to the next."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse

from cage.models import Count, Transport
from casino_backoffice.celery import _acting_cleared
from casino_backoffice.core.audit import acting_note, history_user
from tests.cage.test_admin import container  # noqa: F401 (a fixture)


def test_a_change_made_with_no_request_names_the_person_the_service_acted_for(
    container,  # noqa: F811
    dealer,
    floorperson,
    security,
) -> None:
    count = Count.objects.filter(box__code="T1-drop").get()

    created, witnessed = sorted(count.history.all(), key=lambda row: row.history_date)[:2]

    assert (created.history_type, created.history_user) == ("+", dealer)
    assert (witnessed.history_type, witnessed.history_user) == ("~", floorperson)
    assert Transport.history.get(id=container.pk, history_type="+").history_user == security


def test_the_admin_history_page_names_them_not_none(container, dealer, finance) -> None:  # noqa: F811
    count = Count.objects.filter(box__code="T1-drop").get()
    browser = Client()
    browser.force_login(finance)

    page = browser.get(reverse("admin:cage_count_history", args=[count.pk])).content.decode()

    history = page[page.index('id="audit-history"') :]
    assert str(dealer) in history and "None" not in history
    assert (
        "Created" in history
        and "Changed" in history
        and "Status: Counted, awaiting the witness &rarr; Witnessed, awaiting transport" in history
        and "Witnessed by: (none) &rarr; Floorperson" in history
    )
    assert " EST<" in history or " EDT<" in history  # on the room's clock, with its zone


def test_the_signed_in_person_comes_first_and_a_task_lends_nobody_its_person(dealer, floorperson) -> None:
    class Request:
        user = floorperson

    acting_note(dealer)
    assert history_user(None, Request()) == floorperson
    assert history_user(None, None) == dealer

    _acting_cleared()  # before and after every Celery task

    assert history_user(None, None) is None
