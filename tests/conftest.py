"""Suite-wide settings.

In CI (``CI`` set, as the project's CI does) Hypothesis runs derandomized: the same
examples every run, so a red CI always means a real regression, never an unlucky draw.
Locally it explores fresh examples each run and remembers failures in ``.hypothesis/``.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
