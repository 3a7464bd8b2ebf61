"""A stack of the n+k chain's generators as transition rates, for the compiled kernel.

:func:`~planner.core.markov.generator.generator_parts_of` writes every generator of a stack
as a dense ``m x m`` matrix: a sweep of 23,000 layouts wrote ~11 MB of mostly zeros, then
summed each state's exit rates into a diagonal the kernel never reads (it takes each exit
rate from the row's off-diagonal entries). :func:`transition_stack_of` stops one step
earlier: each group's transition rates (``shape + (T,)``, T a few dozen) and the cell each
one fills, from the same cached structure and the same products
(:mod:`planner.core.markov.transition_arrays`). The kernel
(:mod:`planner.core.markov.expm_compiled`, :attr:`RowJob.cells`) builds each matrix in its
work buffer, adding the transitions that share a cell in transition order, as the NumPy
fill does: the entries are the same numbers, bit for bit, so every figure is the same.

This is the compiled path only: the NumPy path, the MTTDL and the derivatives need Q itself
(:func:`~planner.core.markov.generator.generator_of`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from planner.core.markov.chain_inputs import ChainInputs
from planner.core.markov.expm_compiled import RowJob
from planner.core.markov.transition_arrays import kind_rates, stack_transitions

FloatArray = npt.NDArray[np.float64]

__all__ = ["TransitionStack", "transition_stack_of"]


@dataclass(frozen=True)
class TransitionStack:
    """The generators of a stack as their transitions' rates (per hour).

    Attributes:
        values: each group's transition rates, ``shape + (T,)``, in the chain's transition
            order.
        cells: the flat cell (``source * size + target``) each transition fills, ``(T,)``.
        size: the states of each generator (m), loss state last.
        group_loss: each state's rate of whole-group loss, ``shape + (m,)``
            (:class:`~planner.core.markov.generator.GeneratorParts`').
        sector_loss: each state's rate of sector loss, ``shape + (m,)``.
    """

    values: FloatArray
    cells: npt.NDArray[np.int64]
    size: int
    group_loss: FloatArray
    sector_loss: FloatArray

    def base_job(self, lead_power: int) -> RowJob:
        """The stack as a kernel job from pristine (row 0); callers add their edits."""
        return RowJob(self.values, 0, lead_power, cells=self.cells, size=self.size)


def transition_stack_of(parity: int, inputs: ChainInputs) -> TransitionStack:
    """The generators of ``inputs``' groups (``parity`` parity drives) as transition rates.

    The same structure and rates as :func:`~planner.core.markov.generator.
    generator_parts_of` (every kind of chain: streams, pools, correlated), without the
    dense matrices.
    """
    structure, values = stack_transitions(parity, inputs)
    return TransitionStack(
        np.ascontiguousarray(values, dtype=np.float64),
        structure.cells.astype(np.int64),
        structure.size,
        kind_rates(values, structure.group_rows),
        kind_rates(values, structure.sector_rows),
    )
