"""Named fields laid end to end in a flat vector (:class:`Layout`): the one definition of where
each part of an observation lives. Code writes observations through a layout's named views
(``views["phase"][n - 1] = 1.0``) or its named offsets, never through bare indices, in the way
OpenSpiel's observers keep a dict of named views into one tensor.

>>> seat = Layout(("present", 1), ("phase", 10), ("score", 1))
>>> seat.size, seat.offset("score"), seat["phase"]
(12, 11, slice(1, 11, None))
>>> row = np.zeros(seat.size, np.float32)
>>> views = seat.views(row)
>>> views["phase"][2] = 1.0  # phase 3
>>> int(row.nonzero()[0][0])
3
"""

from __future__ import annotations

import numpy as np


class Layout:
    """Fields ``(name, size)`` laid end to end, in order."""

    def __init__(self, *fields: tuple[str, int]) -> None:
        self.fields: tuple[tuple[str, int], ...] = fields
        self.slices: dict[str, slice] = {}
        self._offsets: dict[str, int] = {}
        start = 0
        for name, size in fields:
            if name in self.slices or size < 1:
                raise ValueError(f"field {name!r} repeats or has no values")
            self.slices[name] = slice(start, start + size)
            self._offsets[name] = start
            start += size
        self.size = start

    def __getitem__(self, name: str) -> slice:
        return self.slices[name]

    def offset(self, name: str) -> int:
        """Where field ``name`` starts."""
        return self._offsets[name]

    def names(self) -> list[str]:
        return [name for name, _ in self.fields]

    def views(self, values: np.ndarray) -> dict[str, np.ndarray]:
        """Each field of ``values`` (an array laid out so, of ``size`` values) as a view by name:
        writing to a view writes ``values``."""
        if values.shape != (self.size,):
            raise ValueError(f"an array of shape {values.shape} does not hold a layout of {self.size} values")
        return {name: values[part] for name, part in self.slices.items()}
