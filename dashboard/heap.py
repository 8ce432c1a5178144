"""What a long-running face imported, kept out of the cyclic garbage collector's walk.

CPython's collector walks every tracked object at each full collection. In the dashboard's
process (and each of the service's) that is mostly what the imports made (Streamlit, pandas,
DuckDB, Litestar, the games' code), which lives as long as the process: over it one full
collection took 40-130 ms, more than a whole tap on the Record page, and one fell inside a
tap every few dozen taps. Frozen once the imports are done, and again whenever a run imported
more (a page opened for the first time), those objects are never walked again, and a full
collection walks only what runs made since (about 5 ms). Garbage that exists at the moment of
freezing is kept for the process's life: imports are few, so that is bounded.
"""

from __future__ import annotations

import gc
import sys

_frozen_at = [0]
"""How many modules were loaded when the heap was last frozen."""


def settle() -> bool:
    """Freeze the heap if modules were imported since the last time; whether it froze."""
    loaded = len(sys.modules)
    if loaded == _frozen_at[0]:
        return False
    _frozen_at[0] = loaded
    gc.freeze()
    return True
