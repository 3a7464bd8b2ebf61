"""drive.price, drive.watts and costs: validated, --set, field metadata and comment-keeping save."""

from __future__ import annotations

import pytest

from planner.core.arrays.cost import CostPrices
from planner.scenario import ScenarioError, load_scenario_text
from planner.scenario.document import parse_yaml
from planner.scenario.edits import field_specs, spec_of, with_value
from planner.scenario.fields import field_meta
from planner.scenario.save import updated_text

PRICED = """\
name: priced
drive:
  arr: 1%
  latent_defects_per_hour: 1.08e-4
  capacity_tb: 16
  price: 350   # example price, replace with a quote
  watts: 8
costs:
  energy_per_kwh: 0.30
  per_group: 2000
  currency: USD
restore: {rebuild_hours: 12, scrub_hours: 168}
aggregate: {data_disks: 100}
layouts:
  - {raid: raid6, group_size: 12}
"""


def rejected(text: str, overrides: tuple[str, ...] = ()) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(text, overrides=overrides)
    assert "\n" not in str(info.value)
    return info.value


def test_prices_reach_the_core() -> None:
    scenario = load_scenario_text(PRICED)
    assert scenario.cost_prices() == CostPrices(
        drive_price=350.0,
        drive_watts=8.0,
        energy_per_kwh=0.30,
        per_group_cost=2000.0,
        currency="USD",
    )


def test_no_price_no_cost() -> None:
    text = PRICED.replace("  price: 350   # example price, replace with a quote\n", "")
    text = (
        text.replace("  watts: 8\n", "").split("costs:")[0]
        + "restore:"
        + (PRICED.split("restore:")[1])
    )
    assert load_scenario_text(text).cost_prices() is None


def test_a_price_alone_is_enough() -> None:
    text = (
        PRICED.split("costs:")[0].replace("  watts: 8\n", "")
        + "restore:"
        + (PRICED.split("restore:")[1])
    )
    prices = load_scenario_text(text).cost_prices()
    assert prices == CostPrices(drive_price=350.0)
    assert prices.counts_purchase
    assert not prices.counts_energy


@pytest.mark.parametrize(
    ("overrides", "field", "words"),
    [
        (("costs.energy_per_kwh=null",), "drive.watts", "needs costs.energy_per_kwh"),
        (("drive.watts=null",), "costs.energy_per_kwh", "needs drive.watts"),
        (("drive.price=null",), "costs.per_group", "needs drive.price"),
        (
            (
                "drive.price=null",
                "drive.watts=null",
                "costs.energy_per_kwh=null",
                "costs.per_group=null",
            ),
            "costs",
            "prices nothing without drive.price",
        ),
        (("drive.price=-5",), "drive.price", "must be at least 0"),
        (("drive.watts=5000",), "drive.watts", "a drive draws 5-25 W"),
        (("costs.energy_per_kwh=1e6",), "costs.energy_per_kwh", "a kWh costs"),
        (("drive.price=cheap",), "drive.price", "expected a number"),
        (("costs.currency=US DOLLARS",), "costs.currency", "at most 8 characters"),
    ],
)
def test_refusals_name_the_field(overrides: tuple[str, ...], field: str, words: str) -> None:
    error = rejected(PRICED, overrides)
    assert error.field == field
    assert words in error.message


def test_a_typo_is_located_with_a_hint() -> None:
    error = rejected(PRICED.replace("  watts: 8", "  wats: 8"))
    assert (error.field, error.line, error.column) == ("drive.wats", 7, 3)
    assert "did you mean 'watts'?" in error.message
    error = rejected(PRICED.replace("energy_per_kwh", "energy_kwh"))
    assert error.field == "costs.energy_kwh"
    assert error.line == 9
    assert "did you mean 'energy_per_kwh'?" in error.message


def test_a_currency_is_one_line_of_text() -> None:
    error = rejected(PRICED.replace("currency: USD", 'currency: "U\\tSD"'))
    assert (error.field, error.line) == ("costs.currency", 11)
    assert "write plain text on one line, e.g. USD or €" in error.message
    error = rejected(PRICED.replace("currency: USD", "currency: 12"))
    assert "expected text" in error.message
    assert load_scenario_text(PRICED.replace("currency: USD", "currency: €")).costs is not None


def test_a_cross_check_points_at_the_line() -> None:
    error = rejected(PRICED.replace("  watts: 8\n", ""))
    assert (error.field, error.line) == ("costs.energy_per_kwh", 8)


def test_set_prices_a_scenario() -> None:
    scenario = load_scenario_text(PRICED, overrides=("drive.price=420",))
    assert scenario.drive.price == 420
    bare = PRICED.split("  price:")[0] + "\nrestore:" + PRICED.split("restore:")[1]
    assert load_scenario_text(bare, overrides=("drive.price=350",)).cost_prices() == CostPrices(
        drive_price=350.0
    )


def test_metadata_comes_from_the_models() -> None:
    price = field_meta("drive.price")
    assert price is not None
    assert (price.label, price.unit, price.optional) == ("Drive price", "currency per drive", True)
    watts = field_meta("drive.watts")
    assert watts is not None
    assert watts.unit == "watts per drive"
    energy = field_meta("costs.energy_per_kwh")
    assert energy is not None
    assert energy.unit == "currency per kWh"


def test_the_price_field_only_for_a_priced_scenario() -> None:
    priced = load_scenario_text(PRICED)
    assert spec_of("drive.price") in field_specs(priced)
    bare = load_scenario_text(
        PRICED, overrides=("drive.price=null", "costs=null", "drive.watts=null")
    )
    assert spec_of("drive.price") not in field_specs(bare)


def test_saving_a_new_price_keeps_the_comments() -> None:
    original = load_scenario_text(PRICED)
    edited = with_value(original, spec_of("drive.price"), 410.0)
    text = updated_text(parse_yaml(PRICED, "<string>"), PRICED, original, edited, {})
    assert "  price: 410.0 # example price, replace with a quote\n" in text
    assert load_scenario_text(text).drive.price == 410.0


def test_saving_a_cleared_price_removes_it() -> None:
    """The price field is gone from the edited scenario's fields; the save still drops it."""
    text = PRICED.split("  watts:")[0] + "\nrestore:" + PRICED.split("restore:")[1]
    original = load_scenario_text(text)
    assert original.cost_prices() == CostPrices(drive_price=350.0)
    edited = with_value(original, spec_of("drive.price"), None)
    assert edited.drive.price is None
    saved = updated_text(parse_yaml(text, "<string>"), text, original, edited, {})
    assert "  price:" not in saved
    assert load_scenario_text(saved).drive.price is None
