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


def test_a_floorperson_opens_a_table_from_the_tablet(client, floorperson, room) -> None:
    table = Table.objects.create(room=room, number="T9", game="holdem", seats=9)
    client.force_login(floorperson)

    response = client.post(reverse("floor:table-open-close", args=[table.pk]), {"is_open": "1"}, follow=True)

    table.refresh_from_db()
    assert table.is_open
    assert "Table T9 (Texas Hold&#x27;em) is open." in response.content.decode()


def test_a_dealer_cannot_open_a_table(client, dealer, room) -> None:
    table = Table.objects.create(room=room, number="T9", game="holdem", seats=9)
    client.force_login(dealer)

    response = client.post(reverse("floor:table-open-close", args=[table.pk]), {"is_open": "1"}, follow=True)

    table.refresh_from_db()
    assert not table.is_open
    assert "Only a floorperson or above" in response.content.decode()
