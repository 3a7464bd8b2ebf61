"""docs/availability.md: its worked example is what planner computes, and adds up.

The tables between the page's markers are recomputed from scenarios/today-20tb-nl-sas.yaml
(:mod:`availability_case`: ``planner evaluate``'s analysis, the report's number formats)
and must match character for character; each layout's NOMDL must be the sum of its two
parts as the page computes them from the expected counts.
"""

from __future__ import annotations

import pytest
from availability_case import PAGE, SCENARIO, between_markers, nomdl_parts, worked_case

from planner.analysis.compare import comparison
from planner.scenario import load_scenario


def test_the_worked_case_is_what_planner_computes() -> None:
    assert between_markers(PAGE.read_text(encoding="utf-8")) == worked_case()


def test_each_nomdl_is_its_whole_group_and_sector_parts() -> None:
    scenario = load_scenario(SCENARIO)
    usable = scenario.usable_tb_per_drive
    assert usable is not None
    for result in comparison(scenario).results:
        assert result.availability is not None
        whole, sectors = nomdl_parts(result, usable, scenario.aggregate.stripe_unit_kib)
        assert result.availability.nomdl_bytes_per_tb == pytest.approx(whole + sectors, rel=1e-12)
