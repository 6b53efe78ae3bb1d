from django.apps import AppConfig


class JackpotsConfig(AppConfig):
    name = "jackpots"
