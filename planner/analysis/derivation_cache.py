"""Exact MTTDL derivations kept on disk, so `planner derive` computes each one once.

The exact fraction of the n+k chain takes seconds to minutes with SymPy
(:func:`planner.core.markov.mttdl_algebra.mttdl_polynomials`); its readable forms take about a
second more. Both are stored as plain integers in JSON (no expression text, nothing is
parsed back but numbers) in the user's cache directory, ``$XDG_CACHE_HOME/planner`` or
``~/.cache/planner``, one file per planner version, chain format and k. Files are written
atomically (:func:`planner.scenario.files.write_atomic`) and carry a checksum: an entry that
does not load, does not match its checksum or was written for another version, chain format
or k is ignored and rebuilt. A cache that cannot be written (read-only home) only costs the
time next run.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from planner import __version__
from planner.analysis.mttdl_forms import (
    Forms,
    form_from_data,
    form_to_data,
    leading_order_forms,
    polynomial_forms,
)
from planner.core.markov.chain import Chain, build_chain
from planner.core.markov.correlated_algebra import (
    CORRELATED_VARIABLES,
    CorrelatedMttdl,
    correlated_mttdl,
)
from planner.core.markov.mttdl_algebra import MttdlPolynomials, mttdl_polynomials
from planner.core.markov.symbolic import Derivation, derivation_from, derive_leading_order
from planner.scenario.files import write_atomic

EXACT_WITHOUT_ASKING = 6
"""Largest k whose exact MTTDL is computed without ``--force`` (k = 6: ~13 s once)."""

EXPECTED_TIME = {7: "half a minute", 8: "one to two minutes"}
"""First-time cost of the exact MTTDL beyond :data:`EXACT_WITHOUT_ASKING`, whole command on
a loaded 2-core machine: k = 7 measured 31 s (k = 5: 6.5 s, k = 6: 13 s, roughly x2.3
a parity drive), k = 8 extrapolated from that."""


CHAIN_FORMAT = 3
"""The form of the chain the stored fractions were derived from; raise it whenever
:func:`planner.core.markov.chain.build_chain` changes, so that no stale derivation is served
(2: issue 20, the chain's transitions gained a stripe share, 1 for a traditional group;
entries without it are from format 1; 3: the defect holder can fail)."""


@dataclass(frozen=True)
class Model:
    """The n+k model as ``planner derive`` shows it, in plain data (no SymPy needed).

    Attributes:
        parity: k.
        leading: collected numerator and denominator of the leading-order MTTDL.
        exact: the same for the exact MTTDL, or None when it was not computed.
        polynomials: the exact fraction, or None.
        from_cache: True when it was read from the disk cache.
        rebuild_streams: concurrent rebuilds (1, the paper's model; None: all failed drives).
    """

    parity: int
    leading: Forms
    exact: Forms | None
    polynomials: MttdlPolynomials | None
    from_cache: bool
    rebuild_streams: int | None = 1

    @property
    def chain(self) -> Chain:
        """The states and transitions."""
        return build_chain(self.parity, self.rebuild_streams)

    def derivation(self) -> Derivation:
        """The SymPy derivation (for LaTeX and Markdown), built from the stored fraction."""
        if self.polynomials is None:
            return derive_leading_order(self.parity, self.rebuild_streams)
        return derivation_from(self.polynomials, self.rebuild_streams)


def cache_directory() -> Path:
    """``$XDG_CACHE_HOME/planner``, or ``~/.cache/planner`` when that is unset or empty."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "planner"


def entry_path(parity: int, directory: Path | None = None) -> Path:
    """The cache file of the n+``parity`` derivation for this planner version."""
    version = re.sub(r"[^A-Za-z0-9.+-]", "_", __version__)
    name = f"derive-{version}-f{CHAIN_FORMAT}-n+{parity}.json"
    return (directory or cache_directory()) / name


def load(parity: int, directory: Path | None = None) -> Model | None:
    """The cached model, or None when there is no usable entry (missing, corrupt, stale)."""
    try:
        data = json.loads(entry_path(parity, directory).read_text(encoding="utf-8"))
        body = data["body"]
        if data["sha256"] != _checksum(body):
            return None
        if body["version"] != __version__ or body["parity"] != parity:
            return None
        if body.get("chain_format") != CHAIN_FORMAT:
            return None
        polynomials = MttdlPolynomials.from_data(body["polynomials"])
        if polynomials.parity != parity:
            return None
        leading = _forms_from_data(body["leading"])
        exact = _forms_from_data(body["exact"])
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return None
    return Model(parity, leading, exact, polynomials, from_cache=True)


def _forms_from_data(data: object) -> Forms:
    if not (isinstance(data, list) and len(data) == 2):
        raise ValueError("bad forms")
    return form_from_data(data[0]), form_from_data(data[1])


def store(model: Model, directory: Path | None = None) -> bool:
    """Write ``model`` (with its exact MTTDL) to the cache; False when that fails."""
    polynomials = model.polynomials
    if polynomials is None or model.exact is None:
        return False
    body = {
        "version": __version__,
        "chain_format": CHAIN_FORMAT,
        "parity": polynomials.parity,
        "polynomials": polynomials.to_data(),
        "leading": [form_to_data(f) for f in model.leading],
        "exact": [form_to_data(f) for f in model.exact],
    }
    path = entry_path(polynomials.parity, directory)
    text = json.dumps({"body": body, "sha256": _checksum(body)}, separators=(",", ":"))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, text)
    except OSError:
        return False
    return True


def _checksum(body: Any) -> str:
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def model(
    parity: int,
    *,
    exact: bool,
    directory: Path | None = None,
    rebuild_streams: int | None = 1,
) -> Model:
    """The n+``parity`` model: from the cache, else derived (and stored when exact).

    Args:
        parity: k.
        exact: compute the exact MTTDL when it is not cached; False gives the leading
            order only unless the cache holds the exact form.
        directory: cache directory (default :func:`cache_directory`).
        rebuild_streams: concurrent rebuilds; the disk cache holds the paper's model (1)
            only, other counts are derived each time.
    """
    one_at_a_time = rebuild_streams == 1
    cached = load(parity, directory) if one_at_a_time else None
    if cached is not None:
        return cached
    leading = leading_order_forms(derive_leading_order(parity, rebuild_streams))
    if not exact:
        return Model(parity, leading, None, None, False, rebuild_streams)
    polynomials = mttdl_polynomials(parity, rebuild_streams)
    result = Model(
        parity, leading, polynomial_forms(polynomials), polynomials, False, rebuild_streams
    )
    if one_at_a_time:
        store(result, directory)
    return result


# --- The correlated chain's exact MTTDL (docs/correlated.md) ---------------------------------

CORRELATED_FORMAT = 1
"""The form of the correlated chain the stored fractions were derived from; raise it
whenever the correlated transitions of :func:`planner.core.markov.chain.build_chain` change."""


def correlated_entry_path(
    parity: int, drives: int | None, rebuild_streams: int | None, directory: Path | None = None
) -> Path:
    """The cache file of one correlated derivation: k, N (or symbolic), streams, formats.

    Everything that changes the fraction is in the name (and checked again on load).
    """
    version = re.sub(r"[^A-Za-z0-9.+-]", "_", __version__)
    size = "N" if drives is None else str(drives)
    streams = "all" if rebuild_streams is None else str(rebuild_streams)
    name = (
        f"derive-{version}-f{CHAIN_FORMAT}-c{CORRELATED_FORMAT}-n+{parity}"
        f"-N{size}-s{streams}-correlated.json"
    )
    return (directory or cache_directory()) / name


def _correlated_key(parity: int, drives: int | None, rebuild_streams: int | None) -> dict[str, Any]:
    return {
        "version": __version__,
        "chain_format": CHAIN_FORMAT,
        "correlated_format": CORRELATED_FORMAT,
        "parity": parity,
        "drives": drives,
        "rebuild_streams": rebuild_streams,
    }


def correlated_mttdl_cached(
    parity: int,
    drives: int | None,
    rebuild_streams: int | None = 1,
    directory: Path | None = None,
) -> tuple[CorrelatedMttdl, bool]:
    """The correlated chain's exact MTTDL from the cache, else derived and stored.

    Returns the fraction and whether it came from the cache. Only for the cases
    :func:`~planner.core.markov.correlated_algebra.correlated_exact_feasible` allows.
    """
    path = correlated_entry_path(parity, drives, rebuild_streams, directory)
    key = _correlated_key(parity, drives, rebuild_streams)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        body = data["body"]
        if data["sha256"] == _checksum(body) and body["key"] == key:
            fraction = CorrelatedMttdl(
                parity,
                drives,
                rebuild_streams,
                _stored_terms(body["numerator"]),
                _stored_terms(body["denominator"]),
            )
            return fraction, True
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        pass
    fraction = correlated_mttdl(parity, drives, rebuild_streams)
    body = {
        "key": key,
        "numerator": [[*e, c] for e, c in fraction.numerator],
        "denominator": [[*e, c] for e, c in fraction.denominator],
    }
    text = json.dumps({"body": body, "sha256": _checksum(body)}, separators=(",", ":"))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, text)
    except OSError:
        pass
    return fraction, False


def _stored_terms(rows: object) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Terms read back from JSON: lists of whole numbers, exponents in range."""
    if not isinstance(rows, list) or not rows:
        raise ValueError("terms must be a non-empty list")
    out = []
    for row in rows:
        if not (isinstance(row, list) and len(row) == len(CORRELATED_VARIABLES) + 1):
            raise ValueError("bad term")
        if not all(type(v) is int for v in row) or not all(0 <= e <= 64 for e in row[:-1]):
            raise ValueError("bad term")
        out.append((tuple(row[:-1]), row[-1]))
    return tuple(sorted(out))
