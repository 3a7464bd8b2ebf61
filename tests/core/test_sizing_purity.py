"""The sizing engine stays pure: no UI, YAML or validation libraries, and no SymPy."""

import json
import subprocess
import sys

FORBIDDEN = {"textual", "typer", "rich", "pydantic", "ruamel", "yaml", "sympy"}


def test_sizing_imports_nothing_heavy() -> None:
    code = (
        "import planner.core.design.sizing, planner.core.arrays.rebuild, json, sys\n"
        "print(json.dumps(sorted(sys.modules)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    loaded = {name.split(".")[0] for name in json.loads(out.splitlines()[-1])}
    assert not loaded & FORBIDDEN, sorted(loaded & FORBIDDEN)
