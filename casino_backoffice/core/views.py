from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from .selectors import health_check


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database, the broker and the scheduler are all well; 503 naming what is not."""
    health = health_check()
    body = {"status": "ok" if health.ok else "unhealthy", "failing": health.failing, **health.checks}
    return JsonResponse(body, status=200 if health.ok else 503)
