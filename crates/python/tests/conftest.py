"""Shared fixtures: paths of the repository's datasets and small puzzle sets."""

from pathlib import Path
from typing import List

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[3]
DATASETS = REPO / "datasets"
SHARED = REPO.parent / "shared" / "datasets"

LEETCODE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def read_lines(path: Path) -> List[str]:
    """The puzzle field of each non-comment line of a one-puzzle-per-line file."""
    out = []
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            out.append(line.split()[0])
    return out


def to_array(lines: List[str]) -> np.ndarray:
    """9x9 lines ('.' or '0' blank) as a uint8 array, without going through the package."""
    rows = [[0 if ch in ".0" else int(ch) for ch in line] for line in lines]
    return np.array(rows, dtype=np.uint8)


@pytest.fixture(scope="session")
def hard9() -> np.ndarray:
    """The shipped 9x9 hard set (200 minimal puzzles rated 12 or more) as an array."""
    return to_array(read_lines(DATASETS / "generated" / "9x9-hard.txt"))


@pytest.fixture(scope="session")
def top95() -> List[str]:
    """The famous top95 set as strings."""
    return read_lines(DATASETS / "famous" / "top95.txt")
