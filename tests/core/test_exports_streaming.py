"""A long CSV streams (casino_backoffice.core.exports.csv_chunks): written while rows are read, the
same text as the CSV built in memory."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from django.http import StreamingHttpResponse

from casino_backoffice.core.exports import CSV_TYPE, Report, csv_bytes, csv_chunks, csv_streaming_response
from tests.core.test_exports import COLUMNS, ROWS


def test_a_streamed_csv_is_the_csv_built_in_memory() -> None:
    rows = ROWS * 500

    streamed = b"".join(csv_chunks(COLUMNS, iter(rows), chunk_bytes=1000))

    assert streamed == csv_bytes(Report(columns=COLUMNS, rows=rows))


def test_a_streamed_csv_yields_as_it_reads_rows() -> None:
    read = 0

    def endless() -> Iterator[list]:
        nonlocal read
        for n in itertools.count():
            read += 1
            yield ROWS[n % 2]

    chunks = csv_chunks(COLUMNS, endless(), chunk_bytes=500)
    first, second = next(chunks), next(chunks)

    # An endless export answers at once: each chunk holds about 500 bytes, a handful of rows.
    assert first.startswith(b"table,rounds,rake,variance,gaming_day,ended_at,voided\r\n")
    assert 500 <= len(first) < 600 and 500 <= len(second) < 600
    assert read < 20


def test_an_empty_export_is_its_header() -> None:
    assert list(csv_chunks(COLUMNS, iter([]))) == [b"table,rounds,rake,variance,gaming_day,ended_at,voided\r\n"]


def test_a_streaming_download_is_named_and_typed() -> None:
    response = csv_streaming_response(columns=COLUMNS, rows=iter(ROWS), filename="rounds")

    assert isinstance(response, StreamingHttpResponse)
    assert response["Content-Type"] == CSV_TYPE
    assert response["Content-Disposition"] == 'attachment; filename="rounds.csv"'
    assert b"".join(response.streaming_content) == csv_bytes(Report(columns=COLUMNS, rows=ROWS))
