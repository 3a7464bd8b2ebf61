"""``planner simulate`` shows the exact Markov P(loss) beside the estimate, as the TUI's F6 does.

The figure is checked against the suite's independent chain (``tests/reference.py``: the
paper's rules in 60-digit mpmath), never against planner's own output; the TUI's side of
"the same figure" is in ``tests/tui/test_tui_sensitivity.py`` (its F6 session).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import mpmath
import pytest
from csv_helpers import csv_lines
from typer.testing import CliRunner

from planner.cli import app
from planner.scenario import load_scenario
from tests import reference

TODAY = Path(__file__).parents[2] / "scenarios" / "today-20tb-nl-sas.yaml"
FEW = ("--trials", "100", "--seed", "3")
"""A few trials: the figure under test is the chain's, not the estimate's."""
TWO_LAYOUTS = ("--layout", "raid5 8", "--layout", "raid-dp 16")


def run(*args: str) -> str:
    result = CliRunner().invoke(app, ["simulate", *args])
    assert result.exit_code == 0, result.stderr
    return result.stdout


def markdown_rows(text: str) -> dict[str, dict[str, str]]:
    """The Markdown table as {label: {header: cell}}."""
    lines = [line for line in text.splitlines() if line.startswith("|")]
    headers = [h.strip() for h in lines[0].strip("|").split("|")]
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in lines[2:]]
    return {row[0]: dict(zip(headers, row, strict=True)) for row in rows}


def test_every_format_carries_the_exact_value_of_the_reference_chain(
    mp_p_loss: Callable[..., mpmath.mpf],
) -> None:
    """NS3574's inputs, RAID 5 of 8 and RAID-DP of 16: JSON, CSV, Markdown and the table."""
    expected = {"raid5 8": mp_p_loss(1, 8), "raid-dp 16": mp_p_loss(2, 16)}
    layouts = json.loads(run(*FEW, *TWO_LAYOUTS, "-f", "json"))["layouts"]
    assert [x["label"] for x in layouts] == list(expected)
    for layout in layouts:
        exact = expected[layout["label"]]
        assert layout["p_loss_markov"] == pytest.approx(float(exact), rel=1e-9)
        # constant rates: the very chain simulated, so a ratio and a verdict
        inside = layout["ci95_low"] <= layout["p_loss_markov"] <= layout["ci95_high"]
        assert layout["markov_in_ci95"] is inside
        assert layout["ratio_to_markov"] == pytest.approx(
            layout["p_loss_group"] / float(exact), rel=1e-9
        )
    table = "".join(csv_lines(run(*FEW, *TWO_LAYOUTS, "-f", "csv")))
    records = list(csv.DictReader(io.StringIO(table)))
    assert [r["label"] for r in records] == list(expected)
    for record in records:
        assert float(record["p_loss_markov"]) == pytest.approx(
            float(expected[record["label"]]), rel=1e-9
        )
    shown = markdown_rows(run(*FEW, *TWO_LAYOUTS, "-f", "markdown"))
    # 2 significant digits, as every P(loss): 8.1% and 0.012% at the paper's rates
    assert shown["raid5 8"]["Markov P(loss) group"].split()[0] == "8.1%"
    assert shown["raid-dp 16"]["Markov P(loss) group"].split()[0] == "0.012%"
    wide = CliRunner().invoke(app, ["simulate", *FEW, *TWO_LAYOUTS], env={"COLUMNS": "200"})
    assert wide.exit_code == 0, wide.stderr
    assert "Markov" in wide.stdout


def test_a_declustered_pool_is_its_own_chain() -> None:
    """The dRAID pool of the 20 TB scenario: its shorter rebuild and stripe share sigma,
    given to the reference chain as the pool's rates (the chain itself is the reference's)."""
    scenario = load_scenario(TODAY)
    pool = next(x for x in scenario.core_layouts() if x.declustered is not None)
    rates = pool.chain_rates(scenario.rates())
    expected = reference.p_loss(
        pool.parity,
        pool.group_size,
        rates.op_failures_per_hour,
        rates.latent_defects_per_hour,
        rates.rebuild_hours,
        rates.scrub_hours,
        scenario.mission_hours,
        rates.rebuild_streams,
        rates.defect_stripe_share,
    )
    assert rates.defect_stripe_share < 1  # the pool's own rule is in play
    layouts = json.loads(run(str(TODAY), *FEW, "--layout", pool.label, "-f", "json"))["layouts"]
    assert layouts[0]["p_loss_markov"] == pytest.approx(float(expected), rel=1e-9)


def test_another_scenario_gets_the_figure_but_no_verdict() -> None:
    """Laws whose means are not the scenario's rates (the elerath2009 preset as it stands on
    the 20 TB scenario): the TUI still shows the exact value, says "another scenario" and
    gives no ratio; so does the CLI, in a note."""
    args = (str(TODAY), *FEW, "--layout", "RAID 6 (10+2)", "--set", "distributions=elerath2009")
    layout: dict[str, Any] = json.loads(run(*args, "-f", "json"))["layouts"][0]
    assert layout["p_loss_markov"] > 0
    assert layout["markov_in_ci95"] is None
    assert layout["ratio_to_markov"] is None
    text = run(*args, "-f", "markdown")
    assert "✗" not in markdown_rows(text)["RAID 6 (10+2)"]["Markov P(loss) group"]
    assert "another scenario" in text
