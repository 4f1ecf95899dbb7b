"""The seed tutorial's five programs (examples/seed/) run and print their success lines on every
machine (the two CUDA C ones on the CPU device without a GPU); those using accelpy.random need
that module."""

import os
import runpy

import pytest

import accelpy as ap

SEED = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "seed")
needs_random = pytest.mark.skipif(not hasattr(ap, "random"),
                                  reason="needs accelpy.random (NumPy-breadth issue)")


def run(name, capsys):
    runpy.run_path(os.path.join(SEED, f"{name}.py"), run_name="__main__")
    return capsys.readouterr().out


def test_cuda_kernel(capsys):
    out = run("cuda_kernel", capsys)
    assert "grid of 4 blocks x 256 threads" in out and "CUDA加速计算成功！" in out


def test_pycuda_style(capsys):
    import accelpy.driver as cuda

    try:
        assert "CUDA加速计算成功！" in run("pycuda_style", capsys)
    finally:
        while cuda.Context.get_current() is not None:  # autoinit pushed a context
            cuda.Context.pop()


def test_cupy_style(device, capsys):
    assert "CuPy加速计算成功！" in run("cupy_style", capsys)


@needs_random
def test_torch_style(capsys):
    out = run("torch_style", capsys)
    want = "cuda" if ap.cuda.is_available() else "cpu"
    assert f"on {want}" in out and "PyTorch加速计算成功！" in out


@needs_random
def test_tf_style(capsys):
    out = run("tf_style", capsys)
    want = "cuda:0" if ap.cuda.is_available() else "cpu"
    assert f"on {want}" in out and "TensorFlow加速计算成功！" in out


def test_skip_reasons_are_given():
    from accelpy._demo import seed_skip_reason

    assert seed_skip_reason(None) == ""
    assert (seed_skip_reason("gpu") == "") == ap.cuda.is_available()
    assert (seed_skip_reason("random") == "") == hasattr(ap, "random")
