"""The ``planner sweep`` command end to end: NS3574 Tables 2 and 3, --vary, --all, --plot."""

from __future__ import annotations

import csv
import json
import math
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import mpmath
import pytest
from csv_helpers import csv_lines
from typer.testing import CliRunner

from planner.cli import app

ROOT = Path(__file__).resolve().parents[2]
TABLE4 = ROOT / "scenarios" / "ns3574-table4.yaml"

CONTRACT = {
    "parity",
    "group_size",
    "groups",
    "total_disks",
    "overhead_disks",
    "exact_division",
    "p_loss_group",
    "p_loss_aggregate",
    "losses_per_10k_groups",
}

TABLE_2 = {  # n+1, 42 data disks: HDD per RAID group -> (groups, HDD per aggregate, overhead)
    2: (42, 84, 42),
    3: (21, 63, 21),
    4: (14, 56, 14),
    7: (7, 49, 7),
    8: (6, 48, 6),
    15: (3, 45, 3),
    22: (2, 44, 2),
}
TABLE_3 = {  # n+2
    5: (14, 70, 28),
    8: (7, 56, 14),
    9: (6, 54, 12),
    16: (3, 48, 6),
    23: (2, 46, 4),
}


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def run_json(runner: CliRunner, *args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["sweep", *args, "--format", "json"])
    assert result.exit_code == 0, result.stderr
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def by_size(document: dict[str, Any], parity: int) -> dict[int, dict[str, Any]]:
    return {r["group_size"]: r for r in document["rows"] if r["parity"] == parity}


def test_json_contract_and_default_sweep(runner: CliRunner) -> None:
    document = run_json(runner)
    assert set(document) >= {"scenario", "mission_hours", "rows"}
    assert document["mission_hours"] == pytest.approx(5 * 8760)
    assert {r["parity"] for r in document["rows"]} == {1, 2, 3}
    for row in document["rows"]:
        assert set(row) >= CONTRACT
        assert row["exact_division"] is True  # only even divisions by default
        assert 0 < row["p_loss_group"] <= row["p_loss_aggregate"] < 1
        assert row["total_disks"] == row["groups"] * row["group_size"]
        assert row["losses_per_10k_groups"] == pytest.approx(1e4 * row["p_loss_group"])
        assert "varied" not in row


def test_table_2_rows_exactly(runner: CliRunner) -> None:
    rows = by_size(run_json(runner, "--parity", "1", "--group-sizes", "2..22"), 1)
    assert {n: (r["groups"], r["total_disks"], r["overhead_disks"]) for n, r in rows.items()} == (
        TABLE_2
    )


def test_table_3_rows_exactly(runner: CliRunner) -> None:
    rows = by_size(run_json(runner, "--parity", "2", "--group-sizes", "2..23"), 2)
    # Sizes 3 and 4 divide 42 evenly too; the paper's Table 3 starts at 5.
    assert set(rows) == {3, 4, *TABLE_3}
    shown = {n: (r["groups"], r["total_disks"], r["overhead_disks"]) for n, r in rows.items()}
    assert {n: v for n, v in shown.items() if n >= 5} == TABLE_3


@pytest.mark.parametrize(("parity", "size"), [(1, 8), (1, 22), (2, 9), (2, 16)])
def test_probabilities_match_mpmath(
    runner: CliRunner,
    mp_p_loss: Callable[..., mpmath.mpf],
    mp_aggregate: Callable[[mpmath.mpf, int], mpmath.mpf],
    parity: int,
    size: int,
) -> None:
    row = by_size(run_json(runner, "-k", str(parity), "-g", str(size)), parity)[size]
    p_group = mp_p_loss(parity, size)
    assert row["p_loss_group"] == pytest.approx(float(p_group), rel=1e-9)
    expected = float(mp_aggregate(p_group, row["groups"]))
    assert row["p_loss_aggregate"] == pytest.approx(expected, rel=1e-9)


def test_paper_table4_magnitudes(runner: CliRunner) -> None:
    """NS3574 Table 4: RAID 10 (n+1, N=2) 0.33% per group; RAID-DP 7+2 about 0.002%."""
    document = run_json(runner, "-k", "1,2", "-g", "2,9")
    assert by_size(document, 1)[2]["p_loss_group"] == pytest.approx(0.0033, abs=5e-5)
    assert round(by_size(document, 2)[9]["p_loss_group"] * 100, 3) == 0.002


def test_all_marks_uneven_divisions(runner: CliRunner) -> None:
    document = run_json(runner, "-k", "2", "-g", "8..12", "--all")
    rows = by_size(document, 2)
    assert sorted(rows) == [8, 9, 10, 11, 12]
    assert [rows[n]["exact_division"] for n in sorted(rows)] == [True, True, False, False, False]
    assert rows[10]["groups"] == 6  # ceil(42 / 8)
    assert rows[10]["extra_data_disks"] == 6 * 8 - 42
    assert rows[11]["data_disks_provided"] == 5 * 9
    table = runner.invoke(app, ["sweep", "-k", "2", "-g", "8..12", "--all"], env={"COLUMNS": "120"})
    assert table.exit_code == 0, table.stderr
    assert "6*" in table.stdout
    assert "+6" in table.stdout
    # Sizes 9 and 10 both have 12 overhead drives: equal neighbours are both shown.
    ten = next(line for line in table.stdout.splitlines() if "10 (8+2)" in line)
    assert re.search(r"│\s+12 │", ten), ten
    assert "uneven division" in table.stdout
    # at 80 columns the Groups column goes: the note says where its * stands (a newcomer)
    narrow = runner.invoke(app, ["sweep", "-k", "2", "-g", "8..12", "--all"], env={"COLUMNS": "60"})
    words = " ".join(narrow.stdout.split())
    assert "* (in the Groups column) uneven division" in words, words


def test_vary_crossed_with_group_size_carries_the_field(
    runner: CliRunner, mp_p_loss: Callable[..., mpmath.mpf]
) -> None:
    document = run_json(runner, "--vary", "drive.arr=1%..3%:3", "-k", "2", "-g", "9,16")
    rows = document["rows"]
    assert [(r["group_size"], r["value"]) for r in rows] == [
        (9, 0.01),
        (9, 0.02),
        (9, 0.03),
        (16, 0.01),
        (16, 0.02),
        (16, 0.03),
    ]
    assert {r["varied"] for r in rows} == {"drive.arr"}
    assert document["varied"] == "drive.arr"
    nine = [r["p_loss_group"] for r in rows if r["group_size"] == 9]
    assert nine == sorted(nine)
    assert nine[1] == pytest.approx(float(mp_p_loss(2, 9, arr=0.02)), rel=1e-9)


def test_vary_alone_runs_over_the_scenario_layouts(runner: CliRunner) -> None:
    document = run_json(runner, str(TABLE4), "--vary", "restore.rebuild_hours=6..48:4", "--log")
    labels = ["RAID 10", "RAID 5 (7+1)", "RAID 6 (7+2)", "RAID-DP (7+2)"]
    rows = document["rows"]
    assert [r["label"] for r in rows] == [label for label in labels for _ in range(4)]
    assert [r["value"] for r in rows[:4]] == [6, 12, 24, 48]  # log-spaced
    assert all(r["varied"] == "restore.rebuild_hours" for r in rows)


def test_vary_mission_years_in_years(runner: CliRunner) -> None:
    rows = run_json(runner, "--vary", "mission_years=1..10:4", "-k", "2", "-g", "9")["rows"]
    assert [r["value"] for r in rows] == [1, 4, 7, 10]
    assert [r["mission_hours"] for r in rows] == [8760 * y for y in (1, 4, 7, 10)]


def test_vary_data_disks_keeps_even_divisions_per_value(runner: CliRunner) -> None:
    rows = run_json(runner, "--vary", "aggregate.data_disks=40..42:3", "-k", "2", "-g", "7..9")[
        "rows"
    ]
    assert {(r["group_size"], r["value"]) for r in rows} == {(7, 40), (8, 42), (9, 42)}


def test_csv_and_markdown_agree_with_json(runner: CliRunner) -> None:
    args = ["sweep", "-k", "1", "-g", "2..8", "--vary", "drive.arr=2%..4%:2"]
    document = run_json(runner, *args[1:])
    result = runner.invoke(app, [*args, "--format", "csv"])
    assert result.exit_code == 0, result.stderr
    records = list(csv.DictReader(csv_lines(result.stdout)))
    assert len(records) == len(document["rows"])
    assert records[0]["varied"] == "drive.arr"
    # CSV floats carry 15 significant digits (no binary noise); JSON the exact float.
    exact = document["rows"][0]["p_loss_aggregate"]
    assert float(records[0]["p_loss_aggregate"]) == pytest.approx(exact, rel=1e-14)
    markdown = runner.invoke(app, [*args, "--format", "markdown"])
    assert markdown.exit_code == 0
    assert markdown.stdout.startswith("### ")
    assert "| Parity | drive.arr |" in markdown.stdout


@pytest.mark.parametrize("columns", [80, 120])
def test_table_fits_the_terminal(runner: CliRunner, columns: int) -> None:
    result = runner.invoke(app, ["sweep"], env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.stderr
    assert max(len(line) for line in result.stdout.splitlines()) <= columns
    for heading in ("n+1", "n+2", "n+3"):
        assert heading in result.stdout
    assert "Over-" in result.stdout


@pytest.mark.parametrize(("suffix", "magic"), [("png", b"\x89PNG\r\n\x1a\n"), ("svg", b"<?xml")])
def test_plot_writes_an_image(runner: CliRunner, tmp_path: Path, suffix: str, magic: bytes) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / f"sweep.{suffix}"
    result = runner.invoke(app, ["sweep", "--all", "-f", "json", "--plot", str(target)])
    assert result.exit_code == 0, result.stderr
    data = target.read_bytes()
    assert data.startswith(magic)
    if suffix == "svg":
        assert b"<svg" in data
    assert [p.name for p in tmp_path.iterdir()] == [target.name]  # no temporary file left
    assert json.loads(result.stdout)["rows"]


def test_plot_over_scenario_layouts(runner: CliRunner, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / "arr.png"
    args = ["sweep", "--vary", "drive.arr=1%..5%:5", "--plot", str(target), "-f", "csv"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.stderr
    assert target.read_bytes().startswith(b"\x89PNG")


def test_plot_without_matplotlib_exits_2(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    target = tmp_path / "sweep.png"
    result = runner.invoke(app, ["sweep", "--plot", str(target)])
    assert result.exit_code == 2
    assert "install the plot extra: pip install 'planner[plot]'" in result.stderr
    assert result.stdout == ""
    assert not target.exists()


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--vary", "drive.ar=1%..2%"], "did you mean 'drive.arr'?"),
        (["--vary", "rebuild_hours=6..48"], "did you mean 'restore.rebuild_hours'?"),
        (["--vary", "drive.capacity_tb=1..2"], "known: drive.arr"),
        (["--vary", "drive.arr=1..5"], "did you mean 1%?"),
        (["--vary", "drive.arr=2%"], "expected FIELD=START..STOP[:COUNT]"),
        (["--vary", "restore.rebuild_hours=6..48:0"], "count must be 1 to"),
        (["--vary", "restore.rebuild_hours=0..48", "--log"], "must be above 0"),
        (["--group-sizes", "2..x"], "'2..x' is not a whole number"),
        (["--group-sizes", "2..8,x"], "'x' is not a whole number"),
        (["--group-sizes", "30..2"], "runs backwards"),
        (["--parity", "9"], "9 is not between 1 and 8"),
        (["--vary", "drive.arr=5%..1%"], "--vary 'drive.arr=5%..1%': 5%..1% runs backwards"),
        (["--vary", "restore.rebuild_hours=48..6:4", "--log"], "48..6 runs backwards"),
        (["--log"], "give --vary too"),
        (["-k", "1", "-g", "5"], "add --all"),
        (["--plot", "chart.pdf"], ".png or .svg"),
        (["--vary", "drive.arr=1%..5%:1000", "-g", "2..1000", "--all"], "more than 200,000"),
    ],
)
def test_bad_input_exits_2_with_one_line(runner: CliRunner, args: list[str], fragment: str) -> None:
    result = runner.invoke(app, ["sweep", *args])
    assert result.exit_code == 2, result.stdout
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert fragment in " ".join(result.stderr.split()), result.stderr
    assert "Traceback" not in result.stderr


def test_output_file_is_written(runner: CliRunner, tmp_path: Path) -> None:
    target = tmp_path / "sweep.json"
    result = runner.invoke(app, ["sweep", "-k", "2", "-f", "json", "-o", str(target)])
    assert result.exit_code == 0, result.stderr
    rows = json.loads(target.read_text())["rows"]
    assert all(math.isfinite(r["p_loss_aggregate"]) for r in rows)


def test_large_sweeps_stream_json_and_csv_in_chunks() -> None:
    """JSON and CSV come out row by row in chunks, and read back whole."""
    from planner.analysis.sweep import sweep_report
    from planner.cli.ranges import parse_vary
    from planner.report import sweep as render
    from planner.report.sweep_export import CHUNK_ROWS
    from planner.scenario import load_default_scenario

    scenario = load_default_scenario()
    report = sweep_report(
        scenario, [1, 2], list(range(3, 30)), True, parse_vary("drive.arr=1%..5%:180"), False
    )
    assert len(report) > 2 * CHUNK_ROWS
    chunks = list(render.json_stream(report))
    assert len(chunks) > 2
    document = json.loads(b"".join(chunks))
    assert len(document["rows"]) == len(report)
    assert document["rows"][0]["p_loss_group"] == report.table.p_loss_group[0]
    assert document["inputs"]["arr"] == 0.019
    csv_chunks = list(render.csv_stream(report))
    assert len(csv_chunks) > 2
    records = list(csv.DictReader(csv_lines(b"".join(csv_chunks).decode())))
    assert len(records) == len(report)
    assert float(records[-1]["value"]) == 0.05


@pytest.mark.parametrize(
    "options",
    [
        ("--parity", "1,2"),  # the legend covered n+1 at N = 22 here
        ("--parity", "1,2,3", "--all"),
        ("--vary", "drive.arr=1%..5%:5"),
    ],
)
def test_the_plot_legend_covers_no_point(options: tuple[str, ...]) -> None:
    pytest.importorskip("matplotlib")
    from planner.analysis.sweep import sweep_report
    from planner.cli.ranges import parse_int_list, parse_vary
    from planner.report.sweep_plot import plot_figure
    from planner.scenario import load_default_scenario

    args = dict(zip(options[::2], options[1::2], strict=False))
    varied = parse_vary(args["--vary"]) if "--vary" in args else None
    by_layout = varied is not None and "--parity" not in args
    report = sweep_report(
        load_default_scenario(),
        parse_int_list(args.get("--parity", "1,2,3"), "--parity", 1, 6),
        parse_int_list("2..30", "--group-sizes", 2, 1000),
        "--all" in options,
        varied,
        by_layout,
    )
    figure = plot_figure(report)
    figure.draw_without_rendering()  # runs the constrained layout, as savefig does
    risk = figure.axes[0]
    legend = risk.get_legend().get_window_extent()
    assert figure.bbox.contains(legend.x0, legend.y0)  # not cut off either
    assert figure.bbox.contains(legend.x1, legend.y1)
    for collection in risk.collections:
        # A marker is a disc of area s points^2: the legend must clear its whole radius.
        radius = (collection.get_sizes().max() ** 0.5) / 2 * figure.dpi / 72
        points = collection.get_offset_transform().transform(collection.get_offsets())
        for x, y in points:
            assert not legend.padded(radius).contains(x, y), (x, y)


def test_vary_refuses_a_latent_defect_rate_of_one_per_hour_or_more() -> None:
    """Scenarios hold latent defect rates below 1 per drive-hour; --vary ran 0.5..2."""
    from typer.testing import CliRunner

    from planner.cli import app

    result = CliRunner().invoke(app, ["sweep", "--vary", "drive.latent_defects_per_hour=0.5..2:3"])
    assert result.exit_code == 2
    assert "is not below" in result.stderr


def test_sweep_takes_every_parity_a_scenario_takes(
    runner: CliRunner, tmp_path: Path, mp_p_loss: Callable[..., mpmath.mpf]
) -> None:
    """sweep stopped at 6 while scenarios and the TUI take parity up to 8 (newcomer review)."""
    scenario = (ROOT / "scenarios" / "ns3574-default.yaml").read_text(encoding="utf-8")
    for parity, loads in ((8, True), (9, False)):
        path = tmp_path / f"k{parity}.yaml"
        layout = f"layouts:\n  - parity: {parity}\n    group_size: 12\nbaseline:"
        path.write_text(scenario.split("layouts:")[0] + layout.split("baseline:")[0], "utf-8")
        result = runner.invoke(app, ["validate", str(path)])
        assert (result.exit_code == 0) is loads, result.stderr
        swept = runner.invoke(app, ["sweep", "-k", str(parity), "-g", "12", "--all"])
        assert (swept.exit_code == 0) is loads, swept.stderr
        derive = runner.invoke(app, ["derive", "-k", str(parity), "--leading-order"])
        assert (derive.exit_code == 0) is loads, derive.stderr
    # two sizes of each parity: each row is a 60-digit mpmath exponential of up to 18 states
    rows = run_json(runner, "-k", "7,8", "-g", "11..12", "--all")["rows"]
    assert {(r["parity"], r["group_size"]) for r in rows} == {
        (k, n) for k in (7, 8) for n in range(11, 13)
    }
    for row in rows:
        expected = float(mp_p_loss(row["parity"], row["group_size"]))
        assert row["p_loss_group"] == pytest.approx(expected, rel=1e-9)


def test_the_plot_gives_each_parity_its_own_colour() -> None:
    pytest.importorskip("matplotlib")
    from planner.analysis.sweep import sweep_report
    from planner.report.sweep_plot import plot_figure
    from planner.scenario import load_default_scenario

    report = sweep_report(
        load_default_scenario(), list(range(1, 9)), list(range(9, 31)), True, None, False
    )
    risk = plot_figure(report).axes[0]
    colours = {line.get_label(): tuple(line.get_color()) for line in risk.get_lines()}
    assert len(colours) == 8, colours
    assert len(set(colours.values())) == 8, colours


@pytest.mark.parametrize(
    ("args", "says", "not_says"),
    [
        # no group of 3-4 drives holds 5 parity drives and a data drive: --all cannot help
        (["--parity", "5", "-g", "3..4"], ["3..4", "parity 5", "at least 6"], "--all"),
        (["--parity", "5", "-g", "3..4", "--all"], ["parity 5", "at least 6"], "--all"),
        # parity 5 fits no size; parity 1 fits 5 but 4 data drives do not divide 42
        (["--parity", "1,5", "-g", "5"], ["parity 5", "at least 6", "parity 1: add --all"], None),
        # a group of 5 holds parity 1 but 4 data drives do not divide 42: --all helps
        (["-k", "1", "-g", "5"], ["divides the data drives evenly", "add --all"], None),
    ],
)
def test_an_empty_sweep_says_why(
    runner: CliRunner, args: list[str], says: list[str], not_says: str | None
) -> None:
    """Groups too small for their parity are said so; --all is offered only where it helps."""
    result = runner.invoke(app, ["sweep", *args])
    assert result.exit_code == 2, result.stdout
    message = " ".join(result.stderr.split())
    for words in says:
        assert words in message, (words, message)
    if not_says is not None:
        assert not_says not in message, message


def test_a_parity_no_size_holds_is_said_beside_the_rows(runner: CliRunner) -> None:
    """--parity 2,5 -g 3..4 showed the n+2 rows and nothing of parity 5 (a newcomer's
    finding): its note says no size asked holds it."""
    result = runner.invoke(app, ["sweep", "--parity", "2,5", "-g", "3..4", "--all", "-f", "json"])
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert {row["parity"] for row in document["rows"]} == {2}
    markdown = runner.invoke(
        app, ["sweep", "--parity", "2,5", "-g", "3..4", "--all", "-f", "markdown"]
    )
    words = " ".join(markdown.stdout.split())
    assert "Parity 5: no group size asked holds 5 parity drives" in words, words[-400:]
    assert "Parity 2:" not in words
