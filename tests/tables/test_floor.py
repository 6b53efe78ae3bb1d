"""The tables app's tablet page: every table, opened and closed by a floorperson or above."""

from __future__ import annotations

from django.urls import reverse

from tables.models import Table


def test_every_table_is_listed_in_natural_order(client, dealer, room) -> None:
    for number in ("T10", "T2", "T1"):
        Table.objects.create(room=room, number=number, game="holdem", seats=9)
    client.force_login(dealer)

    html = client.get("/floor/tables/").content.decode()

    assert html.index(">T1<") < html.index(">T2<") < html.index(">T10<")
    assert "table-open-close" not in html and "/open/" not in html  # a dealer sees no Open button


def test_a_floorperson_opens_a_table_once_they_confirm_and_the_page_says_who_and_when(
    client, floorperson, room
) -> None:
    table = Table.objects.create(room=room, number="T9", game="holdem", seats=9)
    client.force_login(floorperson)
    url = reverse("floor:table-open-close", args=[table.pk])

    asked = client.post(url, {"is_open": "1"}).content.decode()
    table.refresh_from_db()
    assert not table.is_open  # asked first, nothing changed
    assert "Open table T9?" in asked and "Yes, open T9" in asked and 'name="confirmed" value="1"' in asked
    assert f"by you, {floorperson}" in asked

    response = client.post(url, {"is_open": "1", "confirmed": "1"}, follow=True)
    table.refresh_from_db()
    assert table.is_open
    page = response.content.decode()
    assert "Table T9 (Texas Hold&#x27;em) is open." in page
    assert f"Opened by {floorperson}" in page  # who, and when beside it
    last = table.history.latest()
    assert (last.history_user, last.history_change_reason) == (floorperson, f"opened by {floorperson}")

    asked = client.post(url, {"is_open": "0"}).content.decode()
    assert "Close table T9?" in asked and f"opened by {floorperson} at" in asked


def test_a_dealer_cannot_open_a_table(client, dealer, room) -> None:
    table = Table.objects.create(room=room, number="T9", game="holdem", seats=9)
    client.force_login(dealer)

    response = client.post(
        reverse("floor:table-open-close", args=[table.pk]), {"is_open": "1", "confirmed": "1"}, follow=True
    )

    table.refresh_from_db()
    assert not table.is_open
    assert "Only a floorperson or above" in response.content.decode()


def test_a_confirmation_sent_twice_changes_the_table_once_and_says_so(client, floorperson, supervisor, room) -> None:
    """A double tap, or two tablets confirming the same opening: one change on the record, and the second
    person told who did it first."""
    table = Table.objects.create(room=room, number="T9", game="holdem", seats=9)
    url = reverse("floor:table-open-close", args=[table.pk])
    client.force_login(floorperson)
    client.post(url, {"is_open": "1", "confirmed": "1"})
    changes = table.history.count()
    client.force_login(supervisor)

    page = client.post(url, {"is_open": "1", "confirmed": "1"}, follow=True).content.decode()

    table.refresh_from_db()
    assert table.is_open and table.history.count() == changes
    assert f"was open already (opened by {floorperson} at" in page.replace("&#x27;", "'")
    assert "nothing changed" in page
