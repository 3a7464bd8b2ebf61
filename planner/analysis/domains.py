"""What a table says about failure domains (docs/domains.md): the note under it.

The figures themselves come with every layout's result (P(unavailable) and the placement,
:class:`planner.core.markov.enclosures.EnclosureRisk`); this module words what they mean for
a scenario with an ``enclosures`` section.
"""

from __future__ import annotations

from planner.scenario import Scenario


def enclosure_note(scenario: Scenario) -> str:
    """The note under a table of a scenario with enclosures: the model, what is counted."""
    e = scenario.enclosures
    if e is None:
        return ""
    rule = (
        f"{e.members_per_enclosure} drives of a group per enclosure"
        if e.members_per_enclosure is not None
        else f"each group over {e.spread} enclosures"
    )
    return (
        f"Enclosures: {e.failures_per_year:g} failures per enclosure-year, repaired in "
        f"{e.repair_hours:g} h, {rule}; a failed enclosure's drives are unavailable until it "
        "returns, with their data. P(loss) counts data lost; P(unavail.) the group stopping "
        "at least once (an outage beyond its parity, or a loss). An aggregate's figures take "
        "its groups as independent: groups sharing enclosures stop together, so the true "
        "figure lies between one group's and it (docs/domains.md)."
    )
