"""Every public function has the signature it is called with (PEP 362): the ones the C++ core
exports through nanobind too, on every Python (3.12.3 and later would say (*args, **kwargs),
3.11 raise ValueError)."""

import functools
import inspect

import numpy as np
import pytest

import accelpy as ap
from accelpy import _signatures

VAR_POSITIONAL, VAR_KEYWORD = inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD

NB_FUNC = _signatures._NB_FUNC


@pytest.mark.parametrize("module", [ap, ap.linalg, ap.fft, ap.random])
def test_no_public_function_is_left_without_its_signature(module):
    # getattr's default: a lazy submodule whose optional dependency is missing is not there
    objects = {n: getattr(module, n, None) for n in dir(module) if not n.startswith("_")}
    bare = [n for n, f in objects.items() if type(f) is NB_FUNC]
    assert not bare, f"nanobind functions exported without a signature: {bare}"
    signed = [n for n, f in objects.items() if isinstance(f, functools.partial)]
    for name in signed:
        params = inspect.signature(getattr(module, name)).parameters.values()
        assert [p.kind for p in params] != [VAR_POSITIONAL, VAR_KEYWORD], name
    if module is ap:
        # tri (D104), arange and searchsorted (D106) are Python functions now
        assert len(signed) >= 58


@pytest.mark.parametrize("name", ["mean", "sum", "std", "var", "prod", "max", "min", "argmax",
                                  "argmin", "sort", "argsort", "cumsum", "searchsorted",
                                  "count_nonzero", "take", "squeeze", "moveaxis", "tensordot",
                                  "expand_dims", "broadcast_to", "nonzero", "isin"])
def test_core_functions_take_numpys_parameter_names(name):
    # Positional or keyword, as NumPy's: the names a program may pass by keyword are NumPy's.
    ours = inspect.signature(getattr(ap, name)).parameters
    theirs = inspect.signature(getattr(np, name)).parameters
    named = [n for n, p in theirs.items() if p.kind != inspect.Parameter.POSITIONAL_ONLY]
    missing = [n for n in named if n not in ours and n not in ("out", "like")]
    assert not missing, f"{name}: NumPy's {missing} missing from {list(ours)}"


def test_signed_functions_compute_what_the_binding_computes(rng):
    x = rng.standard_normal((4, 5))
    a = ap.asarray(x)
    np.testing.assert_allclose(ap.asnumpy(ap.mean(a, axis=1, keepdims=True)),
                               x.mean(axis=1, keepdims=True), rtol=1e-12)
    np.testing.assert_array_equal(ap.asnumpy(ap.where(a > 0, a, 0)), np.where(x > 0, x, 0))
    assert len(ap.where(a > 0)) == 2
    with pytest.raises(TypeError):
        ap.mean(a, nonsense=1)
    assert ap.concat is ap.concatenate  # one function under both names, as NumPy's
    assert ap.linalg.tensordot is ap.tensordot


def test_defaults_and_overloads_are_read_from_the_bindings():
    where = inspect.signature(ap.where)
    assert list(where.parameters) == ["condition", "x", "y"]
    assert repr(where.parameters["x"].default) == "<no value>"  # numpy.where's
    sort = inspect.signature(ap.argsort).parameters
    assert sort["axis"].default == -1 and sort["descending"].default is False
    assert sort["stable"].kind == inspect.Parameter.KEYWORD_ONLY
    assert ap.mean.__name__ == "mean" and ap.mean.__module__ == "accelpy"
    assert "mean" in ap.mean.__doc__.lower()
    dlpack = inspect.signature(ap.ndarray.__dlpack__).parameters
    assert list(dlpack) == ["self", "stream", "max_version", "dl_device", "copy"]


def test_an_unparseable_rendering_raises_instead_of_guessing():
    with pytest.raises(SyntaxError):
        _signatures._parameters("def f(x: std::vector<int>)", None)



def test_bound_functions_pickle_by_name_and_show_their_name():
    import pickle

    for fn in (ap.sort, ap.mean, ap.concat, ap.linalg.tensordot):
        assert pickle.loads(pickle.dumps(fn)) is fn
    assert repr(ap.mean) == "<function accelpy.mean>"
    other = functools.partial(max, 3)  # other libraries' partials pickle as before
    assert pickle.loads(pickle.dumps(other))(5) == 5
