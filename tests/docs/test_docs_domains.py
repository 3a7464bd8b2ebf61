"""docs/domains.md: its worked case is what planner computes, and its availability figures.

The tables between the page's markers are recomputed from the page's own scenario
(:mod:`domains_case`: ``planner evaluate``'s analysis, the report's number formats) and must
match character for character. Independently of the chain: with every enclosure holding
more drives than the parity, each enclosure failure stops the group and none loses data, so
P(unavailable) is the first of E Poisson processes of rate λ or a loss by T, between
1 - exp(-E λ T) and that plus P(loss).
"""

from __future__ import annotations

import math

from domains_case import PAGE, between_markers, page_scenario, placed, worked_case


def test_the_worked_case_is_what_planner_computes() -> None:
    text = PAGE.read_text(encoding="utf-8")
    assert between_markers(text) == worked_case(text)


def test_outages_beyond_parity_are_the_first_enclosure_failure() -> None:
    scenario = page_scenario(PAGE.read_text(encoding="utf-8"))
    assert scenario.enclosures is not None
    rate = scenario.enclosures.failures_per_year / 8760
    for row in placed(scenario, 4).results:  # 3 enclosures, each beyond parity 2 and 3
        assert row.enclosures is not None
        enclosures = row.enclosures.placement.enclosures
        outage = -math.expm1(-enclosures * rate * scenario.mission_hours)
        assert outage <= row.enclosures.p_unavailable_group <= outage + row.p_loss_group
