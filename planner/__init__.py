"""planner: capacity and data-loss risk of RAID layouts, side by side."""

import os

# One BLAS thread, unless the user asked for more. planner's matrices are small (3 x 3 to a
# few hundred states), where a threaded BLAS is slower than one thread, and its own pool
# runs the many chains side by side (planner.core.markov.pool). Set before NumPy is
# imported: OpenBLAS starts its threads then, and their start-up alone cost ~130 ms of CPU
# of a 0.8 s command on 2 cores, competing with the command itself (a tiny sweep: 0.69 s
# wall and 0.80 s of CPU by default, 0.53 s and 0.53 s with one thread; benchmarks/README.md).
for _variable in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

__version__ = "0.1.0"
