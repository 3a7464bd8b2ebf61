"""What a table says about failure domains (docs/domains.md): the note under it.

The figures themselves come with every layout's result (P(unavailable) and the placement,
:class:`planner.core.markov.enclosures.EnclosureRisk`); this module words what they mean for
a scenario with an ``enclosures`` section.
"""

from __future__ import annotations

from planner.scenario import Scenario


def enclosure_note(scenario: Scenario, varied: str | None = None) -> str:
    """The note under a table of a scenario with enclosures: the model, what is counted.

    ``varied``: the field a sweep varies (``enclosures.spread``); its values are the base
    scenario's, and the note says so when the sweep varies one of the enclosures' fields.
    """
    e = scenario.enclosures
    if e is None:
        return ""
    base = ""
    if varied is not None and varied.startswith("enclosures."):
        base = f" (the base scenario's; the sweep varies {varied.removeprefix('enclosures.')})"
    rule = (
        f"{e.members_per_enclosure} drives of a group per enclosure"
        if e.members_per_enclosure is not None
        else f"each group over {e.spread} enclosures"
    )
    return (
        f"Enclosures{base}: {e.failures_per_year:g} failures per enclosure-year, repaired in "
        f"{e.repair_hours:g} h, {rule}; a failed enclosure's drives are unavailable until it "
        "returns, with their data. P(loss) counts data lost; P(unavail.) the group stopping "
        "at least once (an outage beyond its parity, or a loss). An enclosure holding exactly "
        "as many of a group's drives as its parity (a remainder counts: 12 drives at 5 per "
        "enclosure are 5 + 5 + 2) is the worst placement for data: its failure leaves the "
        "group serving with no redundancy until it returns. An aggregate's figures take "
        "its groups as independent: groups sharing enclosures stop together, so the true "
        "figure lies between one group's and it. The hours degraded and critical and the "
        "NOMDL are not computed with enclosures (n/a): the enclosure chain has no life "
        "after a loss (docs/domains.md)."
    )


def simulation_refusal(scenario: Scenario) -> str:
    """Why ``scenario`` cannot be simulated ("" when it can): the simulator has no enclosures.

    Monte Carlo of the drives alone beside the enclosure chain's P(loss) would compare two
    different models, so ``planner simulate``, ``compare-methods`` and the TUI's F6 refuse.
    """
    e = scenario.enclosures
    if e is None or not e.active:
        return ""
    return (
        "the simulator does not model enclosures (docs/domains.md): remove the enclosures "
        "section, or set enclosures.failures_per_year to 0 (e.g. --set "
        "enclosures.failures_per_year=0)"
    )
