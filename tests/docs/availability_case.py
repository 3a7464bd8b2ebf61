"""docs/availability.md's worked example, computed: the tables between its markers.

The scenario is the shipped scenarios/today-20tb-nl-sas.yaml, evaluated by ``planner
evaluate``'s analysis (:func:`planner.analysis.compare.comparison`) and written with the
report's own number formats. The second table splits each NOMDL into its two parts with
the arithmetic of the page, from the expected counts (not from planner's NOMDL), so the
page shows, and this checks, how the NOMDL is made. ``tests/docs/test_docs_availability.py``
checks the page against this; to rewrite the page after a change of the model, run
``.venv/bin/python tests/docs/availability_case.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from planner.analysis.compare import comparison
from planner.core.design.layout_comparison import Comparison, LayoutResult
from planner.report.numbers import significant_column
from planner.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "availability.md"
SCENARIO = ROOT / "scenarios" / "today-20tb-nl-sas.yaml"
START, END = "<!-- worked-case: start -->", "<!-- worked-case: end -->"
KIB = 1024


def _known(value: float | None) -> float:
    assert value is not None
    return value


def hours_table(compared: Comparison) -> str:
    """Each layout's hours degraded and critical, expected losses and NOMDL."""
    rows = compared.results
    lost = [r.availability for r in rows]
    assert all(a is not None for a in lost)
    columns = [
        significant_column([a.degraded_hours_per_year for a in lost if a]),
        significant_column([a.critical_hours_per_year for a in lost if a]),
        significant_column([a.expected_group_losses for a in lost if a]),
        significant_column([r.expected_sector_loss_events for r in rows]),
        significant_column([_known(a.nomdl_bytes_per_tb) for a in lost if a]),
    ]
    lines = [
        "| layout | groups | Degraded h/yr per group | Critical h/yr per group "
        "| group losses (aggregate) | sector-loss events (aggregate) | NOMDL B/TB |",
        "|:---|---:|---:|---:|---:|---:|---:|",
    ]
    for r, *cells in zip(rows, *columns, strict=True):
        lines.append(f"| {r.layout.label} | {r.shape.groups} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def nomdl_parts(r: LayoutResult, usable_tb_per_drive: float, unit_kib: int) -> tuple[float, float]:
    """The NOMDL's two parts (B/TB): whole groups, and sector losses, as the page says."""
    lost = r.availability
    assert lost is not None
    groups = r.shape.groups
    usable_bytes = float(r.layout.data_capacity) * usable_tb_per_drive * 1e12  # one group
    whole = lost.expected_group_losses * _groups_lost(r) * usable_bytes
    stripe_bytes = r.layout.stripe_data_drives * unit_kib * KIB
    sectors = r.expected_sector_loss_events * stripe_bytes
    usable_tb = groups * usable_bytes / 1e12
    return whole / usable_tb, sectors / usable_tb


def _groups_lost(r: LayoutResult) -> float:
    """Groups' worth of data a group loss loses, as the page says: the pool's, in ZFS."""
    return float(r.shape.groups) if r.layout.pool_lost_with_group else 1.0


def parts_table(compared: Comparison, usable_tb_per_drive: float, unit_kib: int) -> str:
    """The NOMDL split into whole-group and sector losses, and their sum."""
    rows = compared.results
    parts = [nomdl_parts(r, usable_tb_per_drive, unit_kib) for r in rows]
    whole = significant_column([p[0] for p in parts])
    sectors = significant_column([p[1] for p in parts])
    total = significant_column([p[0] + p[1] for p in parts])
    lines = [
        "| layout | a group loss loses | bytes a sector loss loses "
        "| whole groups (B/TB) | sector losses (B/TB) | NOMDL B/TB |",
        "|:---|---:|---:|---:|---:|---:|",
    ]
    shares = [
        f"the pool ({r.shape.groups} groups)" if r.layout.pool_lost_with_group else "the group"
        for r in rows
    ]
    for r, share, w, s, t in zip(rows, shares, whole, sectors, total, strict=True):
        stripe = f"{r.layout.stripe_data_drives} x {unit_kib} KiB"
        lines.append(f"| {r.layout.label} | {share} | {stripe} | {w} | {s} | {t} |")
    return "\n".join(lines)


def worked_case() -> str:
    """The markdown between the page's markers, as the model gives it now."""
    scenario = load_scenario(SCENARIO)
    compared = comparison(scenario)
    usable = scenario.usable_tb_per_drive
    assert usable is not None
    unit = scenario.aggregate.stripe_unit_kib
    return "\n\n".join((hours_table(compared), parts_table(compared, usable, unit)))


def between_markers(text: str) -> str:
    """What the page holds between its markers (stripped)."""
    return text.split(START, 1)[1].split(END, 1)[0].strip()


def main() -> int:
    """Rewrite the page's worked case in place."""
    text = PAGE.read_text(encoding="utf-8")
    head, rest = text.split(START, 1)
    tail = rest.split(END, 1)[1]
    PAGE.write_text(f"{head}{START}\n{worked_case()}\n{END}{tail}", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
