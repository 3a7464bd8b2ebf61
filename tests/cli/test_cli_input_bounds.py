"""Every scenario read is bounded in bytes, whatever the file is (issue 21, item 2).

The 1 MB limit was checked on the bytes after reading them all: ``planner evaluate /dev/zero``
grew to 21 GB, ``yes | planner evaluate /dev/stdin`` the same. The bound is checked here by
behaviour: the child runs under a 1.5 GB address-space cap, so reading the stream whole
would end in MemoryError, not the one-line error asked for.
"""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest

from planner.scenario import ScenarioError
from planner.scenario.document import MAX_FILE_BYTES, read_bounded

PLANNER = [sys.executable, "-m", "planner"]
CAP_BYTES = 1_500_000_000


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CAP_BYTES, CAP_BYTES))


def _run(args: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # type: ignore[call-overload, no-any-return]
        [*PLANNER, *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        preexec_fn=_capped,
        **kwargs,
    )


def _the_limit_line(stderr: str, name: str) -> None:
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith(f"planner: error: {name}: ")
    assert f"more than {MAX_FILE_BYTES:,} bytes" in lines[0]


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_an_endless_device_is_one_line(device: str) -> None:
    if not Path(device).exists():
        pytest.skip(f"needs {device}")
    out = _run(["evaluate", device])
    assert out.returncode == 2, out.stderr
    _the_limit_line(out.stderr, device)


def test_an_endless_pipe_on_stdin_is_one_line() -> None:
    yes = subprocess.Popen(["yes"], stdout=subprocess.PIPE)
    try:
        out = _run(["validate", "/dev/stdin"], stdin=yes.stdout)
    finally:
        yes.kill()
        yes.wait()
    assert out.returncode == 2, out.stderr
    _the_limit_line(out.stderr, "/dev/stdin")


def test_a_scenario_on_stdin_is_read() -> None:
    scenario = Path(__file__).resolve().parents[2] / "scenarios" / "ns3574-table4.yaml"
    with scenario.open("rb") as stdin:
        out = _run(["validate", "/dev/stdin"], stdin=stdin)
    assert out.returncode == 0, out.stderr


def test_reading_stops_one_byte_past_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_bytes(b"#" * (MAX_FILE_BYTES + 50))
    with pytest.raises(ScenarioError, match="more than"):
        read_bounded(path)
    path.write_bytes(b"#" * MAX_FILE_BYTES)
    assert len(read_bounded(path)) == MAX_FILE_BYTES


def test_the_tui_reads_through_the_same_bound() -> None:
    from planner.tui.source import ScenarioSource

    with pytest.raises(ScenarioError, match="more than"):
        ScenarioSource.read(Path("/dev/zero"))
