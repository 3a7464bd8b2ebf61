"""The on-disk cache of exact derivations: stored once, reused, never trusted blindly."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from planner.analysis import derivation_cache
from planner.core.markov import mttdl_algebra
from planner.core.markov.mttdl_algebra import MttdlPolynomials, mttdl_polynomials

# the modules that derive chains symbolically run on one worker: each derivation is
# made once and then read from that worker's cache (make test: --dist loadgroup)
pytestmark = pytest.mark.xdist_group("derivations")


def test_directory_follows_xdg_cache_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert derivation_cache.cache_directory() == tmp_path / "planner"
    monkeypatch.setenv("XDG_CACHE_HOME", "")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert derivation_cache.cache_directory() == tmp_path / "home" / ".cache" / "planner"


def test_stored_once_then_read_back(tmp_path: Path) -> None:
    first = derivation_cache.model(2, exact=True, directory=tmp_path)
    assert not first.from_cache
    path = derivation_cache.entry_path(2, tmp_path)
    assert path.exists()
    assert not list(tmp_path.glob(".*.tmp"))  # the atomic write left no temporary file
    second = derivation_cache.model(2, exact=True, directory=tmp_path)
    assert second.from_cache
    assert second.exact == first.exact
    assert second.leading == first.leading
    assert second.polynomials == mttdl_polynomials(2)
    assert second.derivation().mttdl == first.derivation().mttdl


def write_entry(path: Path, mutate: object) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    mutate(data)  # type: ignore[operator]
    path.write_text(json.dumps(data), encoding="utf-8")


def change_coefficient(data: dict) -> None:
    data["body"]["polynomials"]["numerator"][0][-1] += 1


def change_coefficient_and_checksum(data: dict) -> None:
    change_coefficient(data)
    data["body"]["polynomials"]["sha256"] = "0" * 64
    data["sha256"] = derivation_cache._checksum(data["body"])


def other_version(data: dict) -> None:
    data["body"]["version"] = "0.0.0-other"
    data["sha256"] = derivation_cache._checksum(data["body"])


def older_chain_format(data: dict) -> None:
    data["body"]["chain_format"] = derivation_cache.CHAIN_FORMAT - 1
    data["sha256"] = derivation_cache._checksum(data["body"])


def no_chain_format(data: dict) -> None:
    # an entry written before the chain's form was versioned (issue 20)
    del data["body"]["chain_format"]
    data["sha256"] = derivation_cache._checksum(data["body"])


@pytest.mark.parametrize(
    "damage",
    [
        lambda path: path.write_text("{not json", encoding="utf-8"),
        lambda path: path.write_bytes(b"\x00\xff" * 100),
        lambda path: path.write_text("[]", encoding="utf-8"),
        lambda path: path.write_text("", encoding="utf-8"),
        lambda path: write_entry(path, change_coefficient),
        lambda path: write_entry(path, change_coefficient_and_checksum),
        lambda path: write_entry(path, other_version),
        lambda path: write_entry(path, older_chain_format),
        lambda path: write_entry(path, no_chain_format),
    ],
)
def test_a_bad_entry_is_ignored_and_rebuilt(tmp_path: Path, damage: object) -> None:
    derivation_cache.model(1, exact=True, directory=tmp_path)
    path = derivation_cache.entry_path(1, tmp_path)
    damage(path)  # type: ignore[operator]
    assert derivation_cache.load(1, tmp_path) is None
    rebuilt = derivation_cache.model(1, exact=True, directory=tmp_path)
    assert not rebuilt.from_cache
    assert rebuilt.polynomials == mttdl_polynomials(1)
    assert derivation_cache.load(1, tmp_path) is not None  # and stored again


def test_an_entry_for_another_k_is_not_used(tmp_path: Path) -> None:
    derivation_cache.model(1, exact=True, directory=tmp_path)
    os.replace(derivation_cache.entry_path(1, tmp_path), derivation_cache.entry_path(2, tmp_path))
    assert derivation_cache.load(2, tmp_path) is None


def test_unwritable_cache_still_gives_the_model(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory", encoding="utf-8")
    model = derivation_cache.model(1, exact=True, directory=blocker / "planner")
    assert model.exact is not None
    assert not derivation_cache.store(model, blocker / "planner")


def test_leading_order_only_is_not_stored(tmp_path: Path) -> None:
    model = derivation_cache.model(8, exact=False, directory=tmp_path)
    assert model.exact is None
    assert model.polynomials is None
    assert not list(tmp_path.iterdir())


def signed(body: dict[str, object]) -> dict[str, object]:
    """``body`` with a valid checksum, so only its content can make it fail."""
    keys = ("parity", "variables", "numerator", "denominator")
    return {**body, "sha256": mttdl_algebra._checksum({k: body.get(k) for k in keys})}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"parity": 0}, "bad parity"),
        ({"numerator": [[1, 2, 3]]}, "bad term"),
        ({"numerator": [[0, 0, 0, 0, 0, "1"]]}, "bad term"),
        ({"numerator": [[0, 0, 0, 0, 999, 1]]}, "bad term"),
        ({"numerator": []}, "non-empty"),
        ({"variables": ["x"]}, "bad variables"),
    ],
)
def test_polynomial_data_rejects_what_it_did_not_write(
    change: dict[str, object], message: str
) -> None:
    data = mttdl_polynomials(1).to_data()
    assert MttdlPolynomials.from_data(data) == mttdl_polynomials(1)
    with pytest.raises(ValueError, match=message):
        MttdlPolynomials.from_data(signed({**data, **change}))
    with pytest.raises(ValueError, match="checksum"):
        MttdlPolynomials.from_data({**data, **change})
