"""The examples in the package's docstrings run as written."""

import doctest

import csp_sudoku
import csp_sudoku.dask


def test_the_package_docstring_examples_run():
    failed, attempted = doctest.testmod(csp_sudoku)
    assert attempted > 0 and failed == 0


def test_the_dask_module_docstring_example_runs():
    failed, attempted = doctest.testmod(csp_sudoku.dask)
    assert attempted > 0 and failed == 0


def test_the_engine_module_docstring_example_runs():
    import csp_sudoku.engine

    failed, attempted = doctest.testmod(csp_sudoku.engine)
    assert attempted > 0 and failed == 0


def test_the_package_and_its_stubs_type_check_under_mypy_strict():
    import pytest

    api = pytest.importorskip("mypy.api")
    # By package name: mypy finds the installed (or editable) package through its py.typed marker.
    out, err, status = api.run(["--strict", "--no-incremental", "-p", "csp_sudoku"])
    assert status == 0, out + err


def test_the_package_readme_examples_run_as_written():
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 2
    for code in blocks:
        exec(compile(code, "crates/python/README.md", "exec"), {})
