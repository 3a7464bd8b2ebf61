"""A number given with a unit: the hint suggests a number only where that number is right.

``scrub_hours: 7d`` said "write 7 (a number of hours, no unit)": a weekly scrub made one
every 7 hours. ``energy_per_kwh: 20 cents`` said "write 20" (100 times the price). Each
numeric field with a unit is tried with its own unit (the number stands), a unit planner
converts exactly (the converted number, checked here by hand: 7 d = 7 x 24 h), and a unit
it cannot convert (what to write, and no number). These cases failed first where the old
hint echoed the number.
"""

from __future__ import annotations

import re

import pytest

from planner.scenario import ScenarioError, load_default_scenario, load_scenario_text
from planner.scenario.edits import EditError, field_specs, parse_text

BASE = """\
name: units
drive:
  arr: 2%
  latent_defects_per_hour: 1e-5
restore:
  rebuild_hours: 24
aggregate:
  data_disks: 24
layouts:
  - raid: raid6
    group_size: 8
costs:
  currency: USD
workload:
  read_fraction: 0.7
enclosures:
  members_per_enclosure: 2
correlation:
  shocks_per_year: 0
target:
  usable_tb: 100
"""


def message_for(field: str, text: str) -> str:
    """The message of the error at ``field`` when the file gives it ``text``."""
    section, _, key = field.rpartition(".")
    line = f"{key}: {text}\n"
    scenario = re.sub(rf"(?m)^  {key}: .*\n", "", BASE)  # the base's own value, if any
    if section:
        scenario = scenario.replace(f"{section}:\n", f"{section}:\n  {line}", 1)
    else:
        scenario = line + scenario
    with pytest.raises(ScenarioError) as caught:
        load_scenario_text(scenario, "s.yaml")
    found = [e for e in caught.value.all_errors if e.field == field]
    assert found, [str(e) for e in caught.value.all_errors]
    return str(found[0])


# field, text, words the message must hold, a number it must not suggest
CASES = [
    # the brief's cases: the number was the wrong one
    ("restore.scrub_hours", "7d", "7 d is 168 hours: write 168", "7"),
    ("restore.scrub_hours", "1 week", "1 week is 168 hours: write 168", "1"),
    ("costs.energy_per_kwh", "20 cents", "20 cents is 0.2 of the currency: write 0.2", "20"),
    # the field's own unit: the number stands
    ("restore.scrub_hours", "168 h", "write 168 (a number of hours, no unit)", None),
    ("restore.rebuild_hours", "24 hours", "write 24 (a number of hours, no unit)", None),
    ("mission_years", "5y", "write 5 (a number of years, no unit)", None),
    ("drive.watts", "8 W", "write 8 (a number of watts per drive, no unit)", None),
    ("drive.iops_per_drive", "150 IOPS", "write 150", None),
    ("workload.iops", "5000 iops", "write 5000", None),
    ("aggregate.data_disks", "24 drives", "write 24", None),
    ("correlation.degraded_multiplier", "2x", "write 2", None),
    ("restore.rebuild_mb_per_s", "50 MB/s", "write 50", None),
    # units converted exactly
    ("restore.rebuild_hours", "90 min", "is 1.5 hours: write 1.5", "90"),
    ("restore.replace_delay_hours", "2 days", "is 48 hours: write 48", "2"),
    ("enclosures.repair_hours", "1d", "is 24 hours: write 24", "1"),
    ("restore.scrub_hours", "1 year", "8760 hours (a year is 365 days in planner)", "1"),
    ("mission_years", "60 months", "is 5 years: write 5", "60"),
    ("mission_years", "1825 days", "is 5 years (a year is 365 days", "1825"),
    ("workload.deleted_item_retention_days", "2 weeks", "is 14 days: write 14", "2"),
    ("restore.rebuild_mb_per_s", "1 GB/s", "is 1000 MB/s: write 1000", "1"),
    ("drive.sustained_mb_per_s", "250 MiB/s", "write 262.144", "250"),
    ("drive.watts", "0.008 kW", "write 8", "0.008"),
    ("workload.io_size_kb", "64 KiB", "write 65.536", "64"),
    ("workload.mailbox_mb", "1 GB", "write 1000", "1"),
    ("aggregate.stripe_unit_kib", "1 MiB", "write 1024", "1"),
    # the capacity and percentage conversions the fields already make
    ("drive.capacity_tb", "0.4 PB", "0.4 PB is 400 TB", None),
    ("drive.arr", "1.5", "did you mean 1.5%?", None),
    # no exact conversion: what to write, no number
    ("restore.scrub_hours", "1 month", "a month is not a fixed number of hours", "1"),
    ("restore.scrub_hours", "2 fortnights", "write a number of hours with no unit", "2"),
    ("drive.mtbf_hours", "1.2M hours", "write a number of hours with no unit", "1.2"),
    ("enclosures.failures_per_year", "0.1 per year", "per enclosure-year with no unit", "0"),
    ("drive.latent_defects_per_hour", "1e-4 /h", "per drive-hour with no unit", "1e-4"),
    ("costs.per_group", "2k", "with no unit, e.g. 2000", "2"),
    ("drive.price", "380 EUR", "write 380 if EUR is the scenario's currency", None),
    # a newcomer's review: a price with its symbol, a share as a percentage
    ("drive.price", "$420", "write 420 (the currency is costs.currency; no symbol)", None),
    ("drive.price", "420 €", "write 420 (the currency is costs.currency; no symbol)", None),
    ("drive.usable_fraction", "90%", "no percentage: 90% is 0.9: write 0.9", "90"),
    ("workload.read_fraction", "70%", "write 0.7", "70"),
    # the second review: a currency's code or prefixed symbol, commas, a share as a percent
    ("costs.energy_per_kwh", "US$0.15", "write 0.15 (the currency is costs.currency", None),
    ("costs.per_group", "EUR 1,500", "write 1500 if EUR is the scenario's currency", "1"),
    ("restore.scrub_hours", "1,200 h", "write 1200 (a number of hours, no unit)", "1"),
    ("drive.capacity_tb", "1,200", "YAML reads 1,200 as text: write 1200", "1"),
    ("workload.read_fraction", "70", "must be at most 1; did you mean 0.7 (70%)?", None),
    ("correlation.shock_drive_probability", "5", "and 1); did you mean 0.05 (5%)?", None),
]


@pytest.mark.parametrize(
    ("field", "text", "says", "not_says"),
    [pytest.param(*case, id=f"{case[0]}={case[1]}") for case in CASES],
)
def test_a_number_with_a_unit_gets_the_right_number_or_none(
    field: str, text: str, says: str, not_says: str | None
) -> None:
    message = message_for(field, text)
    assert says in message, message
    if not_says is not None:
        assert not re.search(rf"write {re.escape(not_says)}(?![0-9.])", message), message


@pytest.mark.parametrize(
    ("field", "text", "says"),
    [
        ("restore.scrub_hours", "7d", "7 d is 168 hours: write 168"),
        ("restore.rebuild_hours", "24 h", "write 24 (a number of hours, no unit)"),
        ("mission_years", "60 months", "60 months is 5 years: write 5"),
        ("restore.scrub_hours", "1 month", "a month is not a fixed number of hours"),
        ("restore.scrub_hours", "weekly", "hours, e.g. 168"),
    ],
)
def test_the_tuis_fields_give_the_same_hint(field: str, text: str, says: str) -> None:
    """A TUI field refuses the text with the file's hint, not a number of its own."""
    scenario = load_default_scenario()
    spec = next(s for s in field_specs(scenario) if ".".join(s.path) == field)
    with pytest.raises(EditError) as caught:
        parse_text(spec, text)
    assert says in str(caught.value), str(caught.value)
