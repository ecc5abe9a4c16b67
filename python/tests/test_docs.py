"""docs/python.md's examples, run as a doctest: each printed output is checked."""

import doctest
import pathlib

GUIDE = pathlib.Path(__file__).resolve().parents[2] / "docs" / "python.md"


def test_the_guide_examples():
    failed, tried = doctest.testfile(str(GUIDE), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert tried > 10 and failed == 0
