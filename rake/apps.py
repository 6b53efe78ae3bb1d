from django.apps import AppConfig


class RakeConfig(AppConfig):
    name = "rake"
