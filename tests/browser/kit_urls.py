"""A page of the shared tablet pieces for the browser tests: the site, plus /kit/ with two money fields
on the number pad and two hands on the card picker (no page of the product picks cards yet)."""

from django import forms
from django.http import HttpRequest, HttpResponse
from django.template import engines
from django.urls import include, path

from casino_backoffice.core.floor.forms import CardsField, MoneyField

PAGE = """{% extends "floor/base.html" %}
{% block media %}{{ form.media }}{% endblock %}
{% block content %}
<form method="get" class="card with-pad"><div class="form">
  {% for field in form %}<label for="{{ field.id_for_label }}">{{ field.label }}</label>{{ field }}{% endfor %}
</div>{% include "floor/components/number_pad.html" %}</form>
{% endblock %}"""


class KitForm(forms.Form):
    pot = MoneyField()
    uncalled_bet = MoneyField(required=False)
    winning = CardsField(count=2, label="Winning hole cards")
    losing = CardsField(count=2, label="Losing hole cards")


def kit(request: HttpRequest) -> HttpResponse:
    return HttpResponse(engines["django"].from_string(PAGE).render({"form": KitForm()}, request))


urlpatterns = [
    path("kit/", kit),
    path("", include("casino_backoffice.urls")),
]
