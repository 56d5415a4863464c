"""json_close: the fixtures' comparison lets float rounding through and nothing else."""
import json_close


def test_rounding_passes_and_everything_else_fails():
    assert not json_close.differences({"a": [1.0, 2.0]}, {"a": [1.0, 2.0000001]})
    assert not json_close.differences({"a": 0.3, "n": 3, "s": "x"}, {"a": 0.3 + 1e-7, "n": 3, "s": "x"})
    assert json_close.differences({"a": [1.0, 2.0]}, {"a": [1.0, 2.0001]})  # a real change
    assert json_close.differences({"a": [1, 2]}, {"a": [1, 3]})  # ints exactly
    assert json_close.differences({"a": "x"}, {"a": "y"})
    assert json_close.differences({"a": [1.0]}, {"a": [1.0, 2.0]})
    assert json_close.differences({"a": 1.0}, {"b": 1.0})
    assert json_close.differences({"a": float("nan")}, {"a": 1.0})
    assert json_close.differences({"a": 1e-3}, {"a": 2e-3}, abs_tol=1e-5, rel_tol=0)
    assert not json_close.differences({"a": 1e-3}, {"a": 1e-3 + 5e-6}, abs_tol=1e-5, rel_tol=0)
