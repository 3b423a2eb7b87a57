#!/usr/bin/env bash
# The project's test command: the Rust tests, then the Python package's tests against a freshly built wheel.
#
# Python side: a virtual environment in .venv (made on first use, from $PYTHON or python3, 3.9 or newer), with
# maturin, numpy, pytest, hypothesis, dask[distributed,dataframe] (pandas, pyarrow) and mypy from PyPI; the package
# is built from crates/python with the workspace's release profile (so it reuses the crates the Rust tests compiled)
# and installed over any earlier build, then pytest runs crates/python/tests. Set SKIP_PYTHON=1 to run the Rust
# tests only.
set -euo pipefail
cd "$(dirname "$0")"

echo "== Rust tests"
cargo test --workspace --release

if [ "${SKIP_PYTHON:-0}" = 1 ]; then
    echo "== Python tests skipped (SKIP_PYTHON=1)"
    exit 0
fi

echo "== Python package: build and install into .venv"
if [ ! -x .venv/bin/python ]; then
    "${PYTHON:-python3}" -m venv .venv
fi
# The build backend runs the `maturin` command, so the environment's bin comes first on PATH.
export PATH="$PWD/.venv/bin:$PATH"
.venv/bin/python -m pip install --quiet --disable-pip-version-check maturin numpy pytest hypothesis "dask[distributed,dataframe]" mypy
.venv/bin/python -m pip install --quiet --disable-pip-version-check --no-build-isolation --force-reinstall --no-deps ./crates/python

echo "== Python tests"
(cd crates/python && ../../.venv/bin/python -m pytest -q -p no:cacheprovider tests)
