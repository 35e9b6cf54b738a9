"""The numeric precision of the network's forward passes in training: ``fp32`` (the reference)
or ``bf16`` (CPU autocast to bfloat16: matrix products in bfloat16, which CPUs with AMX or
AVX-512 BF16 run several times faster; losses and softmax stay float32)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import torch

from .config import PRECISIONS


@contextlib.contextmanager
def autocast(precision: str) -> Iterator[None]:
    """Run the block's forward passes at ``precision``."""
    if precision not in PRECISIONS:
        raise ValueError(f"precision must be one of {list(PRECISIONS)}, not {precision!r}")
    if precision == "fp32":
        yield
        return
    with torch.autocast("cpu", dtype=torch.bfloat16):
        yield
