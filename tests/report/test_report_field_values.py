"""A parameter field's value fitted to its cells: expectations written out by hand."""

from __future__ import annotations

import pytest

from planner.report.field_values import fitted_value
from planner.scenario.edits import FieldSpec

ARR = FieldSpec(("drive", "arr"), "ARR", "", "fraction")
ARR_BY_YEAR = FieldSpec(("drive", "arr"), "ARR", "", "fractions")
URE = FieldSpec(("drive", "unrecoverable_read_errors_per_bit"), "URE/bit", "", "float")
DISKS = FieldSpec(("aggregate", "data_disks"), "Data disks", "", "int")
STREAMS = FieldSpec(("restore", "parallel_rebuilds"), "Rebuilds", "", "streams")


@pytest.mark.parametrize(
    ("spec", "value", "cells", "shown"),
    [
        (URE, 1e-15, 10, "1e-15"),  # exact: the form the field loads it in
        (ARR, 0.01, 10, "1%"),
        (ARR, 1.23456789012 / 100, 10, "≈1.234568%"),  # rounded, marked, unit kept
        (ARR, 1.23456789012 / 100, 5, "≈1.2%"),
        (ARR, 1.23456789012 / 100, 4, None),  # not two digits: the field cuts the text
        (DISKS, 123_456_789_012, 10, "≈1.235e+11"),
        (ARR_BY_YEAR, [0.021, 0.0123456789, 0.04], 20, "≈2.1%, 1.234568%, 4%"),
        (STREAMS, True, 2, None),  # "all" is no number to round
    ],
)
def test_a_value_fits_its_cells_and_reads_as_itself(
    spec: FieldSpec, value: object, cells: int, shown: str | None
) -> None:
    assert fitted_value(spec, value, cells) == shown
