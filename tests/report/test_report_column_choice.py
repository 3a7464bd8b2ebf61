"""Issue 21, item 16: choosing and ordering a table's declared columns (the TUI's picker)."""

from __future__ import annotations

from planner.report.column_choice import (
    BUYER_LEAD,
    ColumnChoice,
    chosen_columns,
    column_id,
    default_order,
    ordered_columns,
    screen_columns,
)
from planner.report.table import Column, fit_columns

LABEL = Column("Layout", str, numeric=False, key="label")
SHAPE = Column("Drives/group", str)
TOTAL = Column("Total drives", str, key="total_disks")
RISK = Column("P(loss) aggregate", str, key="p_loss_aggregate")
TCO = Column("TCO (EUR)", str, key="total_cost")
ODDS = Column("Aggregate odds", str)
NEW = Column("Expected sector-loss events", str, key="sector_loss_events")


def ids(columns: list[Column[str]]) -> list[str]:
    return [column_id(c) for c in columns]


def test_a_column_is_named_by_its_key_else_its_header() -> None:
    assert column_id(TCO) == "total_cost"  # not "TCO (EUR)": the currency may change
    assert column_id(SHAPE) == "Drives/group"


def test_the_default_puts_a_buyers_columns_first_then_the_declared_order() -> None:
    declared = [LABEL, SHAPE, RISK, ODDS, TCO, TOTAL]
    assert ids(default_order(declared)) == [
        "label",
        "total_disks",
        "total_cost",
        "p_loss_aggregate",
        "Drives/group",
        "Aggregate odds",
    ]
    assert BUYER_LEAD.index("total_disks") < BUYER_LEAD.index("total_cost")
    assert default_order([]) == []


def test_a_choice_orders_and_hides_and_the_label_stays_first() -> None:
    declared = [LABEL, SHAPE, RISK, TOTAL]
    choice = ColumnChoice(("p_loss_aggregate", "label", "Drives/group"), frozenset({"label"}))
    # The label cannot be moved or hidden; columns the choice does not name come after.
    assert ids(chosen_columns(declared, choice)) == [
        "label",
        "p_loss_aggregate",
        "Drives/group",
        "total_disks",
    ]


def test_a_column_declared_after_the_choice_was_saved_shows_at_the_end() -> None:
    saved = ColumnChoice.of([RISK, TOTAL, SHAPE], ["p_loss_aggregate", "Drives/group"])
    assert saved.hidden == frozenset({"total_disks"})
    declared = [LABEL, SHAPE, NEW, RISK, TOTAL]
    assert ids(ordered_columns(declared, saved)) == [
        "label",
        "p_loss_aggregate",
        "total_disks",
        "Drives/group",
        "sector_loss_events",
    ]
    assert ids(chosen_columns(declared, saved)) == [
        "label",
        "p_loss_aggregate",
        "Drives/group",
        "sector_loss_events",
    ]


def test_names_of_columns_no_longer_declared_are_ignored() -> None:
    choice = ColumnChoice(("gone", "Drives/group"), frozenset({"also gone"}))
    assert ids(chosen_columns([LABEL, SHAPE, RISK], choice)) == [
        "label",
        "Drives/group",
        "p_loss_aggregate",
    ]


def test_each_sections_headline_follows_the_aggregates_risk() -> None:
    """Second newcomer review: in the TUI at 120x40 "× independent" (and P(unavailable),
    P(loss) ageing) sat past the edge, beside a group figure they are not a ratio of."""
    from pathlib import Path

    from planner.analysis.compare import comparison
    from planner.report.comparison_columns import comparison_columns
    from planner.scenario import load_scenario

    scenarios = Path(__file__).resolve().parents[2] / "scenarios"
    for name, headline in [
        ("correlated-20tb.yaml", "correlation_factor"),
        ("enclosures-20tb.yaml", "p_unavailable_aggregate"),
        ("ageing-fleet.yaml", "p_loss_aggregate_ageing"),
    ]:
        columns = comparison_columns(comparison(load_scenario(scenarios / name)))
        ids = [column_id(c) for c in default_order(columns)]
        assert ids.index(headline) == ids.index("p_loss_aggregate") + 1, (name, ids)


def test_a_narrow_terminal_keeps_the_leading_columns_and_those_asked_for() -> None:
    """The CLI's terminal order is the TUI's; at any width it keeps the leading columns of
    it, never a later one in a gap, and a column asked for (``evaluate --methods``) outlasts
    every other but the label."""
    declared = [LABEL, SHAPE, RISK, ODDS, TCO, TOTAL]
    asked = Column("MTTDL vs exact", str, priority=3)
    columns = screen_columns(declared, [asked])
    assert ids(columns) == [*ids(default_order(declared)), "MTTDL vs exact"]
    # widths differ so that a refill by priority would bring a narrow column back in a gap
    cells = [["raid-dp 16 (base)", "48", "12,000", "0.037%", "16 (14+2)", "1:9", "1.30x"]]
    for room in range(0, 200):
        kept = fit_columns(columns, cells, room, refill=False)
        lead = [i for i in kept if i < len(declared)]
        assert lead == list(range(len(lead))), room
        if len(declared) not in kept:
            assert lead == [0], room
