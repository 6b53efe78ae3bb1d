"""Checks shared by the tests of server-rendered pages."""

from __future__ import annotations

import re

_SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script>", re.DOTALL)


def assert_no_inline_script_or_style(html: str) -> None:
    """What the Content-Security-Policy asks of a page: scripts only as files of this site's static
    files, no inline script, no inline style."""
    assert "style=" not in html
    assert html.count("<script") == len(_SCRIPT.findall(html))
    for attributes, body in _SCRIPT.findall(html):
        assert re.search(r'\bsrc="/static/[^"]+\.js"', attributes), attributes
        assert body.strip() == "", body
