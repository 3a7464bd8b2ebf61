"""The ``drive:`` snippet ``planner fit`` prints: the fitted figures as scenario YAML.

What loads (docs/scenarios.md, docs/simulation.md): the constant rate as ``drive.arr`` (or
``drive.mtbf_hours`` when the ARR is 100 % or more), which ``evaluate`` and every Markov
figure use; the Weibull lifetime as ``distributions.operational_failure.weibull``, which
``planner simulate`` uses; the same Weibull (or the ARR by year of service) as ``ageing``,
which the exact chain evaluates beside the constant rate. The degraded multiplier is a
commented line under
``correlation.degraded_multiplier``. A value outside the range the scenario format accepts
is written as a comment that says so, never as a key that would not load.
"""

from __future__ import annotations

import math

from planner.analysis.fleet_fit import FEW_FAILURES, FleetFit, SubsetFit
from planner.report.numbers import significant
from planner.scenario.limits import (
    MAX_AGEING_SHAPE,
    MAX_AGEING_YEARS,
    MAX_MTBF_HOURS,
    MIN_AGEING_SHAPE,
    MIN_FRACTION_PER_YEAR,
)

MIN_MTBF_HOURS = 1000.0
"""The smallest ``drive.mtbf_hours`` a scenario accepts."""

MAX_WEIBULL_SHAPE = 100.0
MAX_WEIBULL_SCALE_HOURS = 1e12
"""The largest Weibull shape and scale a scenario accepts (planner.scenario.distributions)."""


def yaml_number(value: float, digits: int = 3) -> str:
    """``value`` to ``digits`` significant digits as a YAML 1.2 number: 1.39, 140000, 2.1e-07."""
    rounded = significant(value, digits)
    if rounded == int(rounded) and abs(rounded) < 1e15:
        return str(int(rounded))
    return repr(rounded)


def _percent(fraction: float) -> str:
    return f"{yaml_number(100 * fraction)}%"


def _failure_law(subset: SubsetFit) -> list[str]:
    """The ``drive:`` lines: ``arr`` (or ``mtbf_hours``) with the interval as a comment."""
    fit = subset.exponential
    low, high = fit.arr_ci
    if fit.upper_bound_only:
        return [
            "drive:",
            f"  arr: {_percent(high)}  # no failure in the log: this is the 95% upper bound",
        ]
    interval = f"# constant rate; 95%: {_percent(low)} to {_percent(high)}"
    if MIN_FRACTION_PER_YEAR <= significant(fit.arr) < 1:
        return ["drive:", f"  arr: {_percent(fit.arr)}  {interval}"]
    mtbf = significant(fit.mean_life_hours, 3)
    if MIN_MTBF_HOURS <= mtbf <= MAX_MTBF_HOURS:
        return [
            "drive:",
            f"  mtbf_hours: {yaml_number(mtbf)}  # ARR {_percent(fit.arr)}: {interval[2:]}",
        ]
    return [
        f"# drive: ARR {_percent(fit.arr)} ({interval[2:]}) is outside what a scenario accepts "
        f"(ARR {MIN_FRACTION_PER_YEAR:g} to below 1, MTBF {MIN_MTBF_HOURS:,.0f} h or more)"
    ]


def _lifetime(subset: SubsetFit) -> list[str]:
    """The ``distributions:`` lines of the Weibull fit, or a comment saying why there are none."""
    weibull = subset.weibull
    if weibull is None:
        return [f"# No Weibull lifetime: {subset.weibull_note}."]
    shape, scale = significant(weibull.shape, 3), significant(weibull.scale_hours, 3)
    (shape_low, shape_high), (scale_low, scale_high) = weibull.shape_ci, weibull.scale_hours_ci
    interval = (
        f"# 95%: shape {yaml_number(shape_low)} to {yaml_number(shape_high)}, "
        f"scale {yaml_number(scale_low)} to {yaml_number(scale_high)} h"
    )
    law = f"weibull: {{shape: {yaml_number(shape)}, scale_hours: {yaml_number(scale)}}}"
    if not (0 < shape <= MAX_WEIBULL_SHAPE and 0 < scale <= MAX_WEIBULL_SCALE_HOURS):
        return [f"# Weibull {law} is outside what a scenario accepts {interval[2:]}"]
    return [
        "# The fitted lifetime, for planner simulate (evaluate uses the constant rate):",
        "distributions:",
        "  operational_failure:",
        f"    {law}",
        f"    {interval}",
    ]


def _arr_by_year(subset: SubsetFit) -> str | None:
    """``[2.04%, 3.52%, ...]``: the ARR of each year of service, or None if one cannot load."""
    rates = [year.arr for year in subset.years][:MAX_AGEING_YEARS]
    if not rates or not all(MIN_FRACTION_PER_YEAR <= significant(a, 3) < 1 for a in rates):
        return None
    return "[" + ", ".join(_percent(a) for a in rates) + "]"


def _ageing(subset: SubsetFit) -> list[str]:
    """The ``ageing:`` lines: the Weibull (or the ARR by year of service), the other commented."""
    table = _arr_by_year(subset)
    weibull = subset.weibull
    law = None
    if weibull is not None:
        shape, scale = significant(weibull.shape, 3), significant(weibull.scale_hours, 3)
        if MIN_AGEING_SHAPE <= shape <= MAX_AGEING_SHAPE and scale <= MAX_WEIBULL_SCALE_HOURS:
            law = f"weibull: {{shape: {yaml_number(shape)}, scale_hours: {yaml_number(scale)}}}"
    if law is None and table is None:
        return []
    head = "# The failure rate by age, for P(loss) ageing (docs/ageing.md):"
    if law is None:
        return [head, "ageing:", f"  arr_by_year: {table}"]
    other = [] if table is None else [f"  # or by year of service: arr_by_year: {table}"]
    return [head, "ageing:", f"  {law}", *other]


def _multiplier(fit: FleetFit) -> list[str]:
    found = fit.degraded
    if found is None:
        return []
    low, high = found.multiplier_ci
    top = "no upper bound" if math.isinf(high) else yaml_number(high)
    value = "unbounded" if math.isinf(found.multiplier) else yaml_number(found.multiplier)
    if found.multiplier < 1:  # a scenario takes 1 at least: the log shows no rise
        return [
            f"# While a group-mate is down ({found.window_hours:g} h window) the log shows no "
            f"rise: estimate {value}, 95% {yaml_number(low)} to {top}; a scenario takes 1 at "
            "least (independent drives), so no correlation: section is suggested.",
        ]
    rough = (
        [f"# (from {found.failures_in_windows} failure(s) in a window only: a rough figure)"]
        if found.failures_in_windows < FEW_FAILURES
        else []
    )
    return [
        f"# While a group-mate is down ({found.window_hours:g} h window) drives fail this much "
        "more often:",
        *rough,
        "# correlation:",
        f"#   degraded_multiplier: {value}  # 95%: {yaml_number(low)} to {top}",
    ]


def drive_snippet(fit: FleetFit, subset: SubsetFit) -> str:
    """The YAML to paste into a scenario for ``subset`` (the whole log or one model)."""
    failures = f"{subset.failures:,} failure{'s' if subset.failures != 1 else ''}"
    lines = [
        f"# planner fit {fit.source}",  # a line of its own: a path can be long
        f"# {subset.label}: {subset.drives:,} drives, {failures}.",
        "# Into drive: (keep its other keys; arr replaces afr or mtbf_hours):",
        *_failure_law(subset),
        *_lifetime(subset),
        *_ageing(subset),
        *(_multiplier(fit) if subset is fit.overall else []),
    ]
    return "\n".join(lines) + "\n"
