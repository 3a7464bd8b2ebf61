"""The exact MTTDL of the n+k chain as a fraction of two integer polynomials.

MTTDL from the pristine state is ``x[0]`` of ``-A x = 1`` (``A``: the generator on the
transient states), so by Cramer's rule ``MTTDL = det(M0) / det(M)`` with ``M = -A`` and
``M0`` the same matrix with the pristine state's column replaced by ones. Both are
polynomials with integer coefficients in ``N, lambda_op, lambda_ld, mu_op, mu_scrub``.

Method: fraction-free (Bareiss) elimination of ``[M | 1]`` with the states in reverse order,
so the pristine state comes last and its Cramer numerator is the last entry of the
right-hand side (Bareiss' entries are minors of the original matrix). The chain only moves
one failure level at a time, so ``M`` is banded (lower bandwidth 2 in the paper's state
order): a row is only touched once it enters the band, and before that its Bareiss entries
are the original ones times the last pivot, so they are made then, not updated at every
step. That is O(k) polynomial products instead of the O(k^3) of a dense determinant (k = 6
in seconds rather than a minute); SymPy's sparse polynomial ring does the arithmetic.

:class:`MttdlPolynomials` holds the result as plain integers (exponent tuples and
coefficients), so it can be stored and rebuilt without parsing any expression text.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from planner.core.markov.chain import build_chain

VARIABLES = ("N", "lambda_op", "lambda_ld", "mu_op", "mu_scrub")
"""Order of the exponents in every term: drives per group, then the four rates per hour."""

Terms = tuple[tuple[tuple[int, ...], int], ...]
"""A polynomial as ``((exponents, coefficient), ...)``, exponents in :data:`VARIABLES` order."""

_MAX_EXPONENT = 64
"""Bound on any exponent read back from storage (the n+8 chain stays far below it)."""


@dataclass(frozen=True)
class MttdlPolynomials:
    """``MTTDL = numerator / denominator`` (hours) of the n+``parity`` chain, reduced.

    Attributes:
        parity: k.
        numerator: terms of ``det(M0) / g`` (see module docstring), sorted.
        denominator: terms of ``det(M) / g``, sorted; ``g`` is their gcd.
    """

    parity: int
    numerator: Terms
    denominator: Terms

    def to_data(self) -> dict[str, Any]:
        """Plain JSON-ready data, with a checksum of the terms."""
        body = {
            "parity": self.parity,
            "variables": list(VARIABLES),
            "numerator": [[*e, c] for e, c in self.numerator],
            "denominator": [[*e, c] for e, c in self.denominator],
        }
        return {**body, "sha256": _checksum(body)}

    @classmethod
    def from_data(cls, data: object) -> MttdlPolynomials:
        """Rebuild from :meth:`to_data`'s output, checking its shape and checksum.

        Raises:
            ValueError: anything that is not exactly such data (wrong types, lengths,
                variables, negative or huge exponents, a checksum that does not match).
        """
        if not isinstance(data, dict):
            raise ValueError("not an object")
        body = {key: data.get(key) for key in ("parity", "variables", "numerator", "denominator")}
        if data.get("sha256") != _checksum(body):
            raise ValueError("checksum mismatch")
        parity = body["parity"]
        if type(parity) is not int or parity < 1:
            raise ValueError("bad parity")
        if body["variables"] != list(VARIABLES):
            raise ValueError("bad variables")
        return cls(parity, _terms(body["numerator"]), _terms(body["denominator"]))


def _checksum(body: dict[str, Any]) -> str:
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _terms(rows: object) -> Terms:
    if not isinstance(rows, list) or not rows:
        raise ValueError("terms must be a non-empty list")
    out = []
    for row in rows:
        if not (isinstance(row, list) and len(row) == len(VARIABLES) + 1):
            raise ValueError("bad term")
        if not all(type(v) is int for v in row):
            raise ValueError("bad term")
        exponents = tuple(row[:-1])
        if not all(0 <= e <= _MAX_EXPONENT for e in exponents) or row[-1] == 0:
            raise ValueError("bad term")
        out.append((exponents, row[-1]))
    return tuple(sorted(out))


def _ring() -> tuple[Any, list[Any]]:
    """SymPy's sparse polynomial ring ZZ[N, lambda_op, lambda_ld, mu_op, mu_scrub]."""
    import sympy as sp

    ring, *generators = sp.ring(",".join(VARIABLES), sp.ZZ)
    return ring, generators


def _as_terms(poly: Any) -> Terms:
    return tuple(sorted((tuple(int(e) for e in m), int(c)) for m, c in poly.terms()))


@cache
def mttdl_polynomials(parity: int, rebuild_streams: int | None = 1) -> MttdlPolynomials:
    """Numerator and denominator of the exact MTTDL of the n+``parity`` chain (cached per k).

    Seconds for k <= 5, about ten for k = 6 (pure-Python polynomial arithmetic); the work
    roughly triples with each parity drive. ``rebuild_streams``: concurrent rebuilds (1, the
    paper's model; None: every failed drive at once).
    """
    ring, generators = _ring()
    n_drives, *rate_generators = generators
    chain = build_chain(parity, rebuild_streams)
    size = chain.transient_count
    rate_of = {
        "lambda_op": rate_generators[0],
        "lambda_ld": rate_generators[1],
        "mu_op": rate_generators[2],
        "mu_scrub": rate_generators[3],
    }
    # M = -A on the transient states, in reverse order (pristine last).
    rows: list[dict[int, Any]] = [{} for _ in range(size)]
    position = [size - 1 - i for i in range(size)]
    for t in chain.transitions:
        multiplier = t.concurrent if t.drives_excluded is None else n_drives - t.drives_excluded
        rate = multiplier * rate_of[t.event.value]
        i = position[t.source]
        rows[i][i] = rows[i].get(i, ring.zero) + rate
        if t.target != chain.loss_index:
            j = position[t.target]
            rows[i][j] = rows[i].get(j, ring.zero) - rate
    for row in rows:
        row[size] = ring.one  # the right-hand side: expected time, one hour per hour
    numerator, denominator = _bareiss_banded(rows, size, ring)
    common = numerator.gcd(denominator)
    if common != ring.one:
        numerator, denominator = numerator.exquo(common), denominator.exquo(common)
    return MttdlPolynomials(parity, _as_terms(numerator), _as_terms(denominator))


def _bareiss_banded(rows: list[dict[int, Any]], size: int, ring: Any) -> tuple[Any, Any]:
    """``(det with the last column replaced by the right-hand side, det)`` of ``rows``.

    ``rows[i]`` maps column -> entry for a ``size x size`` matrix with the right-hand side
    in column ``size``. One-step Bareiss: ``a_ij <- (a_kk a_ij - a_ik a_kj) / a_{k-1,k-1}``,
    every division exact; rows below the band are brought in scaled by the last pivot.
    """
    bandwidth = max((i - j for i, row in enumerate(rows) for j in row if j < size), default=0)
    previous = ring.one
    active = {i: dict(rows[i]) for i in range(min(size, bandwidth + 1))}
    for k in range(size - 1):
        entering = k + bandwidth
        if k > 0 and entering < size and entering not in active:
            active[entering] = {j: v * previous for j, v in rows[entering].items()}
        pivot_row = active.pop(k)
        pivot = pivot_row[k]
        for i in range(k + 1, min(size, k + bandwidth + 1)):
            row = active[i]
            below = row.pop(k, None)
            updated = {}
            for j in set(row) | {j for j in pivot_row if j > k}:
                value = pivot * row.get(j, ring.zero)
                if below is not None and j in pivot_row:
                    value -= below * pivot_row[j]
                if value:
                    updated[j] = value if previous == ring.one else value.exquo(previous)
            active[i] = updated
        previous = pivot
    last = active[size - 1]
    return last.get(size, ring.zero), last[size - 1]
