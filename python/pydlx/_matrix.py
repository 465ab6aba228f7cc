"""A matrix (numpy array or scipy sparse matrix) as compressed sparse rows.

``Problem.from_matrix`` calls :func:`csr_of`; numpy does the work, so a
large matrix is read without a Python-level loop.
"""

from __future__ import annotations

from typing import Any, Tuple


def csr_of(a: Any) -> Tuple[int, int, bytes, bytes]:
    """``(rows, columns, indptr, indices)``: each row's nonzero columns,
    ``indices[indptr[r]:indptr[r + 1]]``, as little-endian int64 bytes."""
    import numpy as np

    if hasattr(a, "tocsr") and hasattr(a, "nnz"):
        csr = a.tocsr(copy=True)
        csr.sum_duplicates()
        csr.eliminate_zeros()
        rows, columns = csr.shape
        indptr = np.asarray(csr.indptr, dtype="<i8")
        indices = np.asarray(csr.indices, dtype="<i8")
        return int(rows), int(columns), indptr.tobytes(), indices.tobytes()
    m = np.asarray(a)
    if m.ndim != 2:
        raise ValueError(f"a matrix has two dimensions, not {m.ndim}")
    rows, columns = m.shape
    r, c = np.nonzero(m)
    indptr = np.zeros(rows + 1, dtype="<i8")
    np.cumsum(np.bincount(r, minlength=rows), out=indptr[1:])
    return int(rows), int(columns), indptr.tobytes(), c.astype("<i8").tobytes()
