"""What the closed-form MTTDL leaves out of a scenario, said where its row stands.

The leading-order closed form (:func:`planner.core.markov.methods.mttdl_approx_hours`) is
the independent chain's: its degraded multiplier is 1 and it has no shocks. Every other
method row (the exact chain, the exact MTTDL, the chain without latent defects, the spec
sheet's reading, the simulations) carries a ``correlation:`` section. In
``scenarios/correlated-20tb.yaml`` the closed form read 0.00428x the exact value with no
word why (a buyer's review); the note says, per layout, how many times the correlation
raises the exact chain and what the closed form reads against the chain with independent
drives (its own leading-order error), the two whose ratio the row shows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from planner.core.arrays.layouts import Layout, aggregate_shape
from planner.core.markov.methods import AnalyticMethods
from planner.core.markov.transient import p_loss_group, relative_risk
from planner.scenario import Scenario

CLOSED_FORM_INDEPENDENT = "1-exp(-T/MTTDL), closed form, independent drives"
"""The closed-form row's name where the scenario's drives fail together."""


def closed_form_note(
    scenario: Scenario, layouts: Sequence[Layout], analytic: Mapping[str, AnalyticMethods]
) -> str:
    """The closed form's row against the exact one, explained; "" for independent drives.

    ``analytic``: each layout's constant-rate methods by label
    (:func:`planner.analysis.compare.analytic_by_label`).
    """
    if not scenario.correlated:
        return ""
    rates, mission = scenario.rates(), scenario.mission_hours
    parts = []
    for layout in layouts:
        found = analytic[layout.label]
        groups = aggregate_shape(layout, scenario.aggregate.data_disks).groups
        chain = layout.chain_rates(rates, groups).independent()
        independent = p_loss_group(layout.parity, layout.group_size, chain, mission)
        reads = relative_risk(found.p_mttdl_approx, found.p_markov)
        own = relative_risk(found.p_mttdl_approx, independent)
        factor = relative_risk(found.p_markov, independent)
        parts.append(f"{layout.label} {reads:.3g}x = {own:.3g}x / {factor:.3g}x")
    return (
        f"{CLOSED_FORM_INDEPENDENT}: the closed form is the independent chain's (m = 1, no "
        "shocks), so it leaves out the scenario's correlated failures, which every other row "
        "carries (docs/correlated.md). What it reads against the exact chain = its own "
        "leading-order error against the chain with independent drives / how many times the "
        f"correlation raises the exact chain: {'; '.join(parts)}."
    )
