"""The rendered columns of real commands on the shipped scenarios keep one readable notation.

Each command's Markdown cells are read back as numbers (:mod:`notation_helpers`) and checked
against the rule, and against the same command's JSON: the raw values, not pasted output.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from notation_helpers import (
    markdown_columns,
    markdown_tables,
    notation_faults,
    numbers_of,
    read_number,
    table_faults,
)
from typer.testing import CliRunner

from planner.cli import app

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))
HOURS_PER_YEAR = 8760.0
RUNNER = CliRunner()

N_PLUS_8 = (
    "layouts=[{raid: raid10}, {raid: raid5, group_size: 8}, {raid: raid-dp, group_size: 9},"
    " {raid: raid-tp, group_size: 12}, {parity: 8, group_size: 16}]"
)
"""The default scenario's layouts (but raid-dp 16) and an n+8 group of 16, as the TUI adds."""


def run(*args: str) -> str:
    result = RUNNER.invoke(app, list(args))
    assert result.exit_code == 0, result.stderr
    return result.stdout


def markdown(*args: str) -> str:
    return run(*args, "-f", "markdown")


def records(*args: str, key: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = json.loads(run(*args, "-f", "json"))[key]
    return rows


def cell_value(cell: str) -> float:
    number = read_number(cell)
    assert number is not None, cell
    return number.value


def assert_reads(cells: list[str], raw: list[float], scale: float = 1.0) -> None:
    """Each cell is fixed (no exponent) and reads its raw value to 2 significant digits."""
    assert len(cells) == len(raw)
    for cell, value in zip(cells, raw, strict=True):
        assert "e" not in cell, cells
        assert cell_value(cell) == pytest.approx(scale * value, rel=0.05, abs=1e-12), cell


@pytest.mark.parametrize(
    "vary", [(), ("--vary", "drive.arr=1%..5%:3")], ids=["group sizes", "vary ARR"]
)
def test_sweep_reads_fixed_like_the_readme_in_both_modes(vary: tuple[str, ...]) -> None:
    # Plain sweep once showed 1.3e+01% and losses 3.3e+01 (its n+3 rows are ~3e-11), while
    # --vary over the same data showed 17 and 430: fixed needs at most 10 decimals here.
    text = markdown("sweep", *vary)
    assert table_faults(text) == {}
    columns = markdown_columns(text)
    rows = records("sweep", *vary, key="rows")
    assert_reads(columns["P(loss) group"], [r["p_loss_group"] for r in rows], 100)
    assert_reads(columns["P(loss) aggregate"], [r["p_loss_aggregate"] for r in rows], 100)
    losses = columns["Losses/10k groups"]
    assert_reads(losses, [r["losses_per_10k_groups"] for r in rows])
    assert any(cell_value(c) >= 10 for c in losses)  # 33 for mirrors, 430 for RAID 5


def test_compare_methods_shows_percent_above_one_without_exponent() -> None:
    args = ("compare-methods", "--rel-error", "0.3", "--seed", "7")
    layouts = ("--layout", "raid10 2", "--layout", "raid-tp 12")
    text = markdown(*args, *layouts)
    assert table_faults(text) == {}
    columns = markdown_columns(text)
    methods = [m for layout in records(*args, *layouts, key="layouts") for m in layout["methods"]]
    assert_reads(columns["P(loss) aggregate"], [m["p_loss_aggregate"] for m in methods], 100)
    assert any(cell_value(c) >= 10 for c in columns["P(loss) aggregate"])  # 13% for mirrors


def test_an_n_plus_8_layout_leaves_the_other_cells_readable() -> None:
    # n+8's P(loss) is ~1e-25: those columns must go scientific below 1, but MTTDL keeps
    # its words (not 3.8e+08) and the baseline its 1.00x (not 1.00e+00x).
    text = markdown("evaluate", "--set", N_PLUS_8)
    assert table_faults(text) == {}
    columns = markdown_columns(text)
    rows = records("evaluate", "--set", N_PLUS_8, key="layouts")
    labels = [r["label"] for r in rows]
    base = labels.index("raid-dp 9")
    n8 = labels.index("n+8 16")
    triple = labels.index("raid-tp 12")
    for header in ("Risk vs baseline (group)", "Risk vs baseline (aggregate)"):
        assert columns[header][base] == "1.00×"
        assert "e" in columns[header][n8]  # ~3e-21: fixed would need 23 decimals
        assert cell_value(columns[header][n8]) == pytest.approx(
            rows[n8]["relative_risk_aggregate"], rel=0.01
        )
    assert "e-" in columns["P(loss) group"][n8]
    mirrors = columns["P(loss) aggregate"][labels.index("raid10 2")]
    assert "e" not in mirrors
    assert cell_value(mirrors) == pytest.approx(100 * rows[0]["p_loss_aggregate"], rel=0.05)
    mttdl = columns["MTTDL group (years)"]
    years = rows[triple]["mttdl_hours"] / HOURS_PER_YEAR
    assert 1e8 < years < 1e9
    assert mttdl[triple].endswith(" million")
    assert cell_value(mttdl[triple]) == pytest.approx(years, rel=0.05)
    for row, cell in zip(rows, mttdl, strict=True):
        assert cell_value(cell) == pytest.approx(row["mttdl_hours"] / HOURS_PER_YEAR, rel=0.05)


def test_simulated_intervals_share_the_column_notation() -> None:
    # The interval column once mixed 0.19%-0.20% with 2.8e-07%-3.4e-07% (each end alone).
    args = ("simulate", "--set", "distributions=elerath2009", "--rel-error", "0.3")
    args += ("--seed", "7", "--layout", "raid10 2", "--layout", "raid-tp 12")
    text = markdown(*args)
    assert table_faults(text) == {}
    columns = markdown_columns(text)
    rows = records(*args, key="layouts")
    ends = numbers_of(columns["95% CI (group)"])
    expected = [p for r in rows for p in (r["ci95_low"], r["ci95_high"])]
    assert [n.value for n in ends] == pytest.approx([100 * p for p in expected], rel=0.05)
    assert not any(n.scientific for n in ends)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: p.stem)
def test_every_shipped_scenario_evaluates_to_readable_columns(scenario: Path) -> None:
    assert table_faults(markdown("evaluate", str(scenario))) == {}


@pytest.mark.parametrize(
    "args",
    [
        ("size", "scenarios/ns3574-table9-250mb.yaml"),
        ("size", "scenarios/lenovo-s3200.yaml"),
        ("recommend", "scenarios/recommend-400tb.yaml"),
        ("sensitivity", "scenarios/ns3574-default.yaml"),
        ("sweep", "scenarios/ns3574-table3-n+2.yaml", "--parity", "1..6", "--all"),
    ],
    ids=lambda a: " ".join(a),
)
def test_other_commands_render_readable_columns(args: tuple[str, ...]) -> None:
    command, scenario, *options = args
    assert table_faults(markdown(command, str(ROOT / scenario), *options)) == {}


def test_sensitivity_inputs_and_elasticities_follow_the_column_rule() -> None:
    # A latent defect rate of 0.7 per hour once showed 7.00e-01 in Base (and 1.08e-04 for
    # the default rate), and its elasticity -8.7e-05 beside -0.0001 and +2.00.
    args = ("sensitivity", "--set", "drive.latent_defects_per_hour=0.7")
    text = markdown(*args)
    assert table_faults(text) == {}
    columns = markdown_columns(text)
    bars = records(*args, key="bars")
    for header, key in (("Base", "base_value"), ("Low (×0.5)", "low_value")):
        for cell, bar in zip(columns[header], bars, strict=True):
            scale = 100 if cell.endswith("%") else 1
            assert cell_value(cell) == pytest.approx(scale * bar[key], rel=1e-3), cell
    for header, key in (("Elasticity", "elasticity"), ("Elasticity (group)", "elasticity_group")):
        cells = columns[header]
        assert all(c == "0" or c[0] in "+-" for c in cells), cells  # signs kept
        for cell, bar in zip(cells, bars, strict=True):
            assert cell_value(cell) == pytest.approx(bar[key], rel=0.05, abs=0.005), cell
        # Tiny values keep their notation. They were negative (-8.7e-05 for the defect rate:
        # more defects, less risk) while the defect holder could not fail; since issue 20
        # every input moves the risk the right way.
        assert any(0 < cell_value(c) < 1e-3 for c in cells)
        assert all(cell_value(c) >= 0 for c in cells)


def test_the_latent_defect_rate_reads_alike_in_the_table_and_the_inputs_line() -> None:
    text = markdown("sensitivity", "scenarios/ns3574-default.yaml")
    columns = markdown_columns(text)
    row = columns["Input"].index("drive.latent_defects_per_hour")
    base = columns["Base"][row]
    assert cell_value(base) == pytest.approx(1.08e-4)
    assert "e" not in base
    assert f"latent defects {base}/drive-h" in text


PROSE_P_LOSS = re.compile(r"(?:P\(loss\)|at most|>) (?P<number>[0-9][0-9.,e+-]*%?)(?= |;|\.|$)")
"""A probability in a sentence: ``P(loss) 0.00052%``, ``at most 0.010%``, ``> 0.010%``."""


def prose_probabilities(text: str) -> list[str]:
    """The probabilities the sentences (not the tables) of ``text`` state, in order."""
    found = []
    for line in text.splitlines():
        if line.startswith("|") or line.startswith("- Cost:"):
            continue
        found += [m["number"] for m in PROSE_P_LOSS.finditer(line)]
    return [n for n in found if not n.replace(",", "").isdigit()]  # not "at most 2,000 drives"


def test_recommend_sentences_give_probabilities_as_the_tables_do() -> None:
    # The sentences once said P(loss) 5.2e-06, misses P(loss) 0.00053 > 0.0001, at most 0.0001
    # while the tables beside them said 0.00052% and 0.053%.
    args = ("recommend", "scenarios/recommend-400tb.yaml")
    found = json.loads(run(*args, "-f", "json"))
    target = found["target"]["max_p_loss"]
    expected = [
        target,  # the target, in the search's summary
        found["recommended"]["p_loss_aggregate"],
        found["nearest_cheaper"]["p_loss_aggregate"],
        target,
    ]
    cells = prose_probabilities(markdown(*args))  # the terminal's sentences are the same
    assert all(c.endswith("%") and "e" not in c for c in cells), cells
    assert [cell_value(c) for c in cells] == pytest.approx([100 * p for p in expected], rel=0.05)


@pytest.fixture(scope="module")
def today_review() -> tuple[str, dict[str, Any]]:
    """The design review of today's 20 TB scenario, and ``recommend`` at the report's target.

    The report simulates: run once for the two tests that read it. Its text on stdout is
    the document a file gets, without the two pictures (their links aside).
    """
    scenario = "scenarios/today-20tb-nl-sas.yaml"
    text = run("report", scenario, "-o", "-")
    default = ("--set", "target.max_p_loss=1e-4")  # the report's target when none is given
    found: dict[str, Any] = json.loads(run("recommend", scenario, *default, "-f", "json"))
    return text, found


def test_design_review_sentences_give_probabilities_as_the_tables_do(
    today_review: tuple[str, dict[str, Any]],
) -> None:
    # review.md said "raid-tp 27 ... P(loss) 2.4e-05" beside a table showing 0.0024%.
    text, found = today_review
    cells = prose_probabilities(text)
    assert cells, text
    assert all(c.endswith("%") and "e" not in c for c in cells), cells
    top = 100 * found["recommended"]["p_loss_aggregate"]
    assert any(cell_value(c) == pytest.approx(top, rel=0.05) for c in cells)
    target = 100 * found["target"]["max_p_loss"]
    assert any(cell_value(c) == pytest.approx(target, rel=0.05) for c in cells)


def test_design_review_money_columns_keep_cents_below_100(
    today_review: tuple[str, dict[str, Any]],
) -> None:
    # review.md's recommend tables showed 27, 26, 28 USD per TB while its comparison table
    # showed 26.58: the documented rule (docs/costs.md) is cents when every value of the
    # column is below 100.
    text, found = today_review
    per_tb = [c["cost_per_usable_tb"] for c in found["candidates"] + found["front"]]
    columns = [
        cells
        for table in markdown_tables(text)
        for header, cells in table.items()
        if header.startswith(("Cost per usable TB", "TCO/TB"))
    ]
    assert len(columns) >= 3  # the comparison's and the recommendation's two tables
    below = 0
    for cells in columns:
        values = [cell_value(c) for c in cells]
        if max(values) < 100:  # cents; a column reaching 100 is in whole units
            below += 1
            assert all(len(c.partition(".")[2]) == 2 for c in cells), cells
        else:
            assert all("." not in c for c in cells), cells
    assert below >= 1
    for cells in columns[1:]:  # the recommendation's candidates, as the JSON has them
        cents = all("." in c for c in cells)
        assert {cell_value(c) for c in cells} <= {round(v, 2 if cents else 0) for v in per_tb}


def test_usable_tb_past_a_million_reads_in_words() -> None:
    # 100,000 data drives of 12 TB once read 1,200,000.0 TB; the documented rule
    # (docs/commands.md): in words.
    args = ("evaluate", "--set", "aggregate.data_disks=100000", "--set", "drive.capacity_tb=12")
    cells = markdown_columns(markdown(*args))["Usable TB"]
    rows = records(*args, key="layouts")
    assert all(r["usable_tb"] >= 1e6 for r in rows)
    for cell, row in zip(cells, rows, strict=True):
        assert cell.endswith(" million"), cells
        assert cell_value(cell) == pytest.approx(row["usable_tb"], rel=0.005), cell


def test_usable_tb_below_a_million_keeps_one_decimal() -> None:
    args = ("evaluate", "scenarios/today-20tb-nl-sas.yaml")
    cells = markdown_columns(markdown(*args))["Usable TB"]
    rows = records(*args, key="layouts")
    for cell, row in zip(cells, rows, strict=True):
        assert len(cell.partition(".")[2]) == 1, cells
        assert cell_value(cell) == pytest.approx(row["usable_tb"], abs=0.05), cell


def test_a_miss_reads_its_value_and_limit_in_one_notation() -> None:
    # "P(loss) 0.000030% > 1.0e-10% (x2.99e+05)": each number alone, an exponent on 299,000.
    from planner.core.design.recommend import Miss
    from planner.report.recommend_summary import describe_misses

    text = describe_misses([Miss("max_p_loss", 3.0e-7, 1e-12)])
    value, limit, ratio = re.fullmatch(r"P\(loss\) (\S+) > (\S+) \(x(\S+)\)", text).groups()  # type: ignore[union-attr]
    assert notation_faults([value, limit]) == []
    assert cell_value(value) == pytest.approx(3.0e-5)
    assert cell_value(limit) == pytest.approx(1e-10)
    assert "e" not in ratio
    assert cell_value(ratio) == pytest.approx(3.0e5)
