"""The sweep's JSON and CSV, written from columns, against the record encoders.

planner.report.table's ``json_chunks`` and ``csv_chunks`` encode one dict per row with
Python's ``json`` and ``csv``; the sweep's encoders (planner.report.sweep_export) write
the same documents from whole columns with orjson. The records here are built from the
rows one by one (``SweepColumns.rows``), so the two sides share nothing but the numbers.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from planner.analysis.sweep import SweepReport, sweep_report
from planner.cli.ranges import parse_vary
from planner.report import sweep as render
from planner.report.sweep_export import (
    CHUNK_ROWS,
    MAX_CHUNK_ROWS,
    chunk_rows,
    csv_float_tokens,
    float_tokens,
)
from planner.report.table import csv_chunks, json_chunks
from planner.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
DEFECTS = "drive.latent_defects_per_hour"


def records(report: SweepReport) -> list[dict[str, Any]]:
    """The JSON contract's records, one dict per row (as the rows' plain values give them)."""
    out = []
    labels = report.row_labels()
    values = [None] * len(report) if report.values is None else report.values.tolist()
    for row, label, value in zip(report.table.rows(), labels, values, strict=True):
        record: dict[str, Any] = {}
        if report.by_layout:
            record["label"] = label or ""
        record["parity"] = row.parity
        record |= {
            "group_size": row.group_size,
            "groups": row.groups,
            "total_disks": row.total_disks,
            "overhead_disks": row.overhead_disks,
            "exact_division": row.exact_division,
            "p_loss_group": row.p_loss_group,
            "p_loss_aggregate": row.p_loss_aggregate,
            "losses_per_10k_groups": row.losses_per_10k_groups,
            "data_disks": row.data_disks,
            "data_disks_provided": row.data_disks_provided,
            "mission_hours": row.mission_hours,
            "p_group_lost": row.p_group_lost,
            "p_sectors_lost": row.p_sectors_lost,
            "p_group_lost_aggregate": row.p_group_lost_aggregate,
            "p_sectors_lost_aggregate": row.p_sectors_lost_aggregate,
            "expected_sector_loss_events_group": row.expected_sector_loss_events_group,
            "expected_sector_loss_events": row.expected_sector_loss_events,
            "degraded_hours_per_year": row.degraded_hours_per_year,
            "critical_hours_per_year": row.critical_hours_per_year,
            "expected_group_losses_group": row.expected_group_losses_group,
            "expected_group_losses": row.expected_group_losses,
        }
        if row.nomdl_bytes_per_tb is not None:  # the drives' capacity is known
            record["nomdl_bytes_per_tb"] = row.nomdl_bytes_per_tb
        extra = row.data_disks_provided - row.data_disks
        record["extra_data_disks"] = extra if isinstance(extra, int) else round(extra, 1)
        if report.varied is not None:
            record["varied"] = report.varied.name
            record["value"] = value
        out.append(record)
    return out


def reports() -> list[SweepReport]:
    today = load_scenario(ROOT / "scenarios" / "today-20tb-nl-sas.yaml")  # a dRAID pool
    paper = load_scenario(ROOT / "scenarios" / "ns3574-table4.yaml")
    return [
        sweep_report(paper, [1, 2, 3], list(range(2, 31)), False, None, False),
        sweep_report(
            paper, [1, 4], list(range(2, 40)), True, parse_vary("drive.arr=0.1%..20%:60"), False
        ),
        sweep_report(today, [], [], True, parse_vary("drive.arr=0.5%..3%:5"), True),
        sweep_report(today, [], [], True, parse_vary(f"{DEFECTS}=1e-9..1e-3:7", True), True),
    ]


@pytest.fixture(scope="module")
def sweep_reports() -> list[SweepReport]:
    return reports()


@pytest.fixture(scope="module")
def sweep_records(sweep_reports: list[SweepReport]) -> list[list[dict[str, Any]]]:
    """:func:`records` of each report, built once for the JSON and CSV tests (read only)."""
    return [records(report) for report in sweep_reports]


def test_the_reports_cover_chunks_pools_and_every_number_layout(
    sweep_reports: list[SweepReport],
) -> None:
    assert len(sweep_reports[1]) > 2 * CHUNK_ROWS
    pool = sweep_reports[2].table
    assert not (pool.overhead_disks == np.round(pool.overhead_disks)).all()  # a pool's fraction
    risks = np.concatenate([r.table.p_group_lost for r in sweep_reports])
    assert ((risks > 1e-5) & (risks < 1e-4)).any()  # Python writes 1.2e-05, orjson 0.000012
    assert ((risks > 1e-10) & (risks < 1e-6)).any()  # Python writes 1e-07, orjson 1e-7


def test_json_is_the_record_encoders_text(
    sweep_reports: list[SweepReport], sweep_records: list[list[dict[str, Any]]]
) -> None:
    for report, rows in zip(sweep_reports, sweep_records, strict=True):
        text = render.to_json(report)
        document = json.loads(text)
        head = {key: value for key, value in document.items() if key != "rows"}
        assert text == "".join(json_chunks(head, "rows", rows))
        assert document["rows"] == rows


def test_csv_is_the_record_encoders_text(
    sweep_reports: list[SweepReport], sweep_records: list[list[dict[str, Any]]]
) -> None:
    for report, rows in zip(sweep_reports, sweep_records, strict=True):
        assert render.to_csv(report) == "".join(csv_chunks(rows, report.inputs))


def test_json_streams_in_chunks_of_rows(sweep_reports: list[SweepReport]) -> None:
    report = sweep_reports[1]
    chunks = list(render.json_stream(report))
    assert len(chunks) >= len(report) // CHUNK_ROWS + 2
    assert max(len(chunk) for chunk in chunks) < 2 * CHUNK_ROWS * 1000  # rows, not the whole
    assert len(json.loads(b"".join(chunks))["rows"]) == len(report)


def test_long_exports_take_bigger_chunks_within_the_bounds() -> None:
    assert chunk_rows(10) == CHUNK_ROWS
    assert chunk_rows(23_000) == 2_875  # about eight chunks
    assert chunk_rows(10**7) == MAX_CHUNK_ROWS  # memory flat in the rows


def test_float_texts_are_pythons_repr() -> None:
    rng = np.random.default_rng(4)
    values = np.concatenate(
        [
            10.0 ** rng.uniform(-320, 308, 20_000),
            -(10.0 ** rng.uniform(-12, 3, 2_000)),
            rng.uniform(0.0, 1.0, 2_000),
            np.arange(-5.0, 2000.0),
            [0.0, -0.0, 5e-324, 1e-5, 1e-4, 9.99999999999e-5, 1e15, 1e16, 1.5e16, 0.1],
        ]
    )
    assert float_tokens(values) == [repr(v).encode() for v in values.tolist()]
    expected = [repr(float(f"{v:.15g}")).encode() for v in values.tolist()]
    assert csv_float_tokens(values) == expected


def test_json_refuses_what_json_has_not() -> None:
    with pytest.raises(ValueError, match="JSON"):
        float_tokens(np.array([1.0, math.inf]))
