"""A newcomer's value mistakes say the value to write, in a file and in ``--set``.

Three mistakes got a message without the fix: a price with its currency's code or a prefixed
symbol (``US$420``, ``USD 420``: "expected a number" and nothing more), digits grouped by
commas (``1,200``, which YAML reads as text: "write a number ... e.g. 350") and a share
given as a percent number (``usable_fraction: 90``: "must be at most 1" alone). Each is one
line at FILE:LINE:COLUMN naming the field, exit 2, no traceback; through ``--set`` the same
words name the override. The numbers to write are worked out here by hand.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from scenario_texts import SMALL
from typer.testing import CliRunner

from planner.cli import app
from planner.scenario.edits import EditError, parse_text, spec_of
from planner.scenario.fields import number_bounds

PRICE_LINE = "  arr: 1.9%\n"
"""The line of SMALL (line 3) a price or share is added after, as line 4."""


def _file_with(old: str, new: str) -> str:
    assert SMALL.count(old) == 1, old
    return SMALL.replace(old, new)


def _one_line(args: list[str]) -> str:
    """The one line ``planner validate`` prints on stderr, checked for exit 2."""
    result = CliRunner().invoke(app, ["validate", *args])
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, lines
    assert len(lines[0]) < 300
    return lines[0].removeprefix("planner: error: ")


def _in_file(tmp_path: Path, old: str, new: str, typed: str) -> tuple[str, str]:
    """The message for the file with ``old`` replaced by ``new``, and its expected spot."""
    path = tmp_path / "s.yaml"
    text = _file_with(old, new)
    path.write_text(text, encoding="utf-8")
    lines = text.splitlines()
    number = next(i for i, line in enumerate(lines, 1) if line.endswith(f": {typed}"))
    column = lines[number - 1].index(f": {typed}") + 3
    return _one_line([str(path)]), f"{path}:{number}:{column}"


def _price(tmp_path: Path, typed: str) -> tuple[str, str]:
    return _in_file(tmp_path, PRICE_LINE, f"{PRICE_LINE}  price: {typed}\n", typed)


# what a newcomer typed as a price, and the number to write
PRICES = [
    ("US$420", "420"),
    ("USD 420", "420"),
    ("420 USD", "420"),
    ("EUR 420", "420"),
    ("USD420", "420"),
    ("€420", "420"),
    ("420€", "420"),
    ("A$420", "420"),
    ("$1,200", "1200"),
    ("1,200 USD", "1200"),
]


@pytest.mark.parametrize(("typed", "number"), PRICES, ids=[p[0] for p in PRICES])
def test_a_price_with_a_currency_says_the_number_and_where_the_currency_goes(
    tmp_path: Path, typed: str, number: str
) -> None:
    message, spot = _price(tmp_path, typed)
    assert message.startswith(f"{spot}: drive.price: expected a number, got '{typed}'; ")
    assert f"; write {number} " in message, message
    assert "costs.currency" in message, message


# (the line of SMALL, the line with the mistake, what was typed, the words to write)
GROUPED = {
    "a price": (PRICE_LINE, f"{PRICE_LINE}  price: 1,200\n", "1,200", "write 1200"),
    "a price with cents": (PRICE_LINE, f"{PRICE_LINE}  price: 1,200.50\n", "1,200.50", "1200.50"),
    "millions": (PRICE_LINE, f"{PRICE_LINE}  price: 12,000,000\n", "12,000,000", "12000000"),
    "quoted": (PRICE_LINE, f'{PRICE_LINE}  price: "1,200"\n', '"1,200"', "write 1200"),
    "a count": ("  data_disks: 42", "  data_disks: 1,200", "1,200", "write 1200"),
    "a count, .0": ("  data_disks: 42", "  data_disks: 1,200.0", "1,200.0", "write 1200 "),
    "a decimal comma": (PRICE_LINE, f"{PRICE_LINE}  price: 1,5\n", "1,5", "write 1.5"),
    "a decimal comma, 0": (PRICE_LINE, f"{PRICE_LINE}  watts: 0,500\n", "0,500", "write 0.500"),
}


@pytest.mark.parametrize(("old", "new", "typed", "says"), GROUPED.values(), ids=list(GROUPED))
def test_digits_grouped_by_commas_say_the_number_without_them(
    tmp_path: Path, old: str, new: str, typed: str, says: str
) -> None:
    message, spot = _in_file(tmp_path, old, new, typed)
    assert message.startswith(f"{spot}: "), (spot, message)
    assert says in message, message
    assert "YAML reads" in message, message


NOT_GROUPED = {
    # a list of two numbers, not a number with its thousands grouped
    "a flow list": ("  data_disks: 42", "  data_disks: [1, 200]", "[1, 200]"),
    "a flow list, no space": ("  data_disks: 42", "  data_disks: [1,200]", "[1,200]"),
    # a count has no decimals: 1,5 is no count to suggest
    "a decimal comma in a count": ("  data_disks: 42", "  data_disks: 1,5", "1,5"),
    # 1234,567: a decimal comma, or 1,234,567 with a comma left out
    "ambiguous": (PRICE_LINE, f"{PRICE_LINE}  price: 1234,567\n", "1234,567"),
    "grouped by two": (PRICE_LINE, f"{PRICE_LINE}  price: 12,50,000\n", "12,50,000"),
}


@pytest.mark.parametrize(("old", "new", "typed"), NOT_GROUPED.values(), ids=list(NOT_GROUPED))
def test_commas_that_are_no_grouping_get_no_number(
    tmp_path: Path, old: str, new: str, typed: str
) -> None:
    message, _ = _in_file(tmp_path, old, new, typed)
    for guess in ("1200", "1.5", "1234.567", "1234567", "1250000"):
        assert f"write {guess}" not in message, message


# a share written as a percent number: the field, what was typed, the fraction it means
SHARES = [
    ("usable_fraction", "90", "did you mean 0.9 (90%)?"),
    ("usable_fraction", "90.5", "did you mean 0.905 (90.5%)?"),
    ("usable_fraction", "100", "did you mean 1 (100%)?"),
]


@pytest.mark.parametrize(("key", "typed", "says"), SHARES, ids=[s[1] for s in SHARES])
def test_a_share_as_a_percent_number_says_the_fraction(
    tmp_path: Path, key: str, typed: str, says: str
) -> None:
    message, spot = _in_file(tmp_path, PRICE_LINE, f"{PRICE_LINE}  {key}: {typed}\n", typed)
    assert message == f"{spot}: drive.{key}: {typed} is out of range: must be at most 1; {says}"


@pytest.mark.parametrize("typed", ["150", "1e3"])
def test_a_share_above_100_gets_no_fraction(tmp_path: Path, typed: str) -> None:
    message, _ = _in_file(tmp_path, PRICE_LINE, f"{PRICE_LINE}  usable_fraction: {typed}\n", typed)
    assert message.endswith("is out of range: must be at most 1"), message


@pytest.mark.parametrize(
    ("setting", "says"),
    [
        ("drive.price=US$420", "; write 420 (the currency is costs.currency; no symbol)"),
        ("drive.price=USD 420", "; write 420 if USD is the scenario's currency (costs.currency)"),
        ("drive.price=1,200", "; YAML reads 1,200 as text: write 1200 ("),
        ("aggregate.data_disks=1,200", ": write 1200 ("),
        ("drive.price=1,5", "; YAML reads 1,5 as text: write 1.5 ("),
        ("drive.usable_fraction=90", "; did you mean 0.9 (90%)?"),
    ],
)
def test_the_same_mistakes_in_set_name_the_override(
    tmp_path: Path, setting: str, says: str
) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(SMALL, encoding="utf-8")
    message = _one_line([str(path), "--set", setting])
    field = setting.split("=")[0]
    assert message.startswith(f"--set {setting}: {field}: "), message
    assert says in message, message


@pytest.mark.parametrize(
    ("setting", "says"),
    [
        # below 1, not at most 1: a probability target or a rate, no share
        ("target.max_p_loss=5", "5 is out of range: must be less than 1"),
        ("drive.latent_defects_per_hour=5", "must be less than 1 latent defects per drive-hour"),
        # a yearly rate, read as a percent already
        ("drive.arr=2", "2 is not a fraction of drives per year, below 1: did you mean 2%?"),
    ],
)
def test_other_fields_below_1_keep_their_message(tmp_path: Path, setting: str, says: str) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(SMALL, encoding="utf-8")
    message = _one_line([str(path), "--set", setting])
    assert message.endswith(says), message
    assert "(5%)" not in message
    assert "(2%)" not in message


def test_the_bounds_come_from_the_models_constraints() -> None:
    """A share's "at most 1" is read from its Field, a Probability's from inside its type."""
    assert number_bounds(("drive", "usable_fraction")) == (0.01, 1)
    assert number_bounds(("workload", "read_fraction")) == (0, 1)
    assert number_bounds(("correlation", "shock_drive_probability")) == (0, 1)
    assert number_bounds(("drive", "arr")) == (1e-6, math.inf)  # its "below 1" is a check
    assert number_bounds(("aggregate", "data_disks")) is None  # a count takes no fraction
    assert number_bounds(("layouts", 0, "group_size")) is None


@pytest.mark.parametrize("where", ["file", "set"])
def test_a_percentage_whose_fraction_is_out_of_range_is_not_told_to_write_it(
    tmp_path: Path, where: str
) -> None:
    """``usable_fraction: 0.5%`` was told "write 0.005", which the field then refused
    (at least 0.01): the message now says the range instead of a value it refuses."""
    if where == "file":
        new = f"{PRICE_LINE}  usable_fraction: 0.5%\n"
        message, spot = _in_file(tmp_path, PRICE_LINE, new, "0.5%")
        assert message.startswith(f"{spot}: drive.usable_fraction: "), message
    else:
        path = tmp_path / "s.yaml"
        path.write_text(SMALL, encoding="utf-8")
        message = _one_line([str(path), "--set", "drive.usable_fraction=0.5%"])
    assert message.endswith("0.5% is 0.005, out of range: it takes 0.01 to 1"), message
    assert "write 0.005" not in message


@pytest.mark.parametrize(
    ("typed", "says"),
    [
        ("$1,200", "'$1,200' is not a number; write 1200 (the currency is costs.currency"),
        ("US$1,200", "write 1200 (the currency is costs.currency"),
        ("1,5", "write the decimal point as '.'"),  # a decimal comma stays refused as one
    ],
)
def test_a_tui_field_says_the_same_of_a_price_with_a_symbol_and_a_comma(
    typed: str, says: str
) -> None:
    """Typed into the TUI's price, ``$1,200`` was told to write the decimal point as '.'."""
    with pytest.raises(EditError) as refused:
        parse_text(spec_of("drive.price"), typed)
    assert says in str(refused.value)


@pytest.mark.parametrize(
    ("typed", "meant"), [("1,5%", "1.5%"), ("1,9", "1.9%"), ("0,019", "0.019")]
)
def test_a_decimal_comma_in_the_failure_rate_is_named_as_one(
    tmp_path: Path, typed: str, meant: str
) -> None:
    """``arr: 1,5%`` was only told to write a fraction or a percentage (a newcomer's find)."""
    path = tmp_path / "s.yaml"
    path.write_text(_file_with(PRICE_LINE, f"  arr: {typed}\n"), encoding="utf-8")
    message = _one_line([str(path)])
    assert f"write the decimal point as '.' ({meant})" in message, message


@pytest.mark.parametrize(("typed", "meant"), [("1,5%", "1.5%"), ("12,5", "12.5")])
def test_a_tui_field_names_the_number_a_decimal_comma_meant(typed: str, meant: str) -> None:
    """The second newcomer: the TUI answered ``1,5%`` with the generic (1.9%, 12.5) where
    the command line says (1.5%)."""
    field = "drive.arr" if typed.endswith("%") else "restore.rebuild_hours"
    with pytest.raises(EditError) as refused:
        parse_text(spec_of(field), typed)
    assert f"write the decimal point as '.' ({meant})" in str(refused.value)
