from collections.abc import Sequence
from typing import Any

class ElementwiseKernel:
    name: str
    nin: int
    nout: int
    nargs: int
    def __init__(
        self,
        in_params: str,
        out_params: str,
        operation: str,
        name: str = "kernel",
        reduce_dims: bool = True,
        preamble: str = "",
        no_return: bool = False,
        return_tuple: bool = False,
        loop_prep: str = "",
        after_loop: str = "",
        options: Sequence[str] = (),
    ) -> None: ...
    def __call__(self, *args: Any, size: int | None = None, stream: Any = None) -> Any: ...

class ReductionKernel:
    name: str
    nin: int
    nout: int
    def __init__(
        self,
        in_params: str,
        out_params: str,
        map_expr: str,
        reduce_expr: str,
        post_map_expr: str,
        identity: str | None,
        name: str = "reduce_kernel",
        reduce_type: str | None = None,
        reduce_dims: bool = True,
        preamble: str = "",
        options: Sequence[str] = (),
    ) -> None: ...
    def __call__(
        self,
        *args: Any,
        out: Any = None,
        axis: int | tuple[int, ...] | None = None,
        keepdims: bool = False,
        stream: Any = None,
    ) -> Any: ...
