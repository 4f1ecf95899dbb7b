from collections.abc import Sequence
from typing import IO, Any

class CompileError(RuntimeError):
    log: str
    name: str
    source_lines: str

class DevicePointer:
    ptr: int
    size: int
    def __init__(self, ptr: int, size: int, owner: object = None) -> None: ...
    def __int__(self) -> int: ...
    def __index__(self) -> int: ...
    @property
    def __cuda_array_interface__(self) -> dict[str, Any]: ...

class RawModule:
    code: str
    path: str | None
    options: tuple[str, ...]
    name_expressions: tuple[str, ...]
    def __init__(
        self,
        code: str | None = None,
        *,
        path: str | None = None,
        options: Sequence[str] = (),
        backend: str = "nvrtc",
        translate_cucomplex: bool = False,
        enable_cooperative_groups: bool = False,
        name_expressions: Sequence[str] | None = None,
        jitify: bool = False,
        name: str = "RawModule",
        cache_dir: str | bool | None = None,
    ) -> None: ...
    def compile(self, log_stream: IO[str] | None = None) -> RawModule: ...
    def get_function(self, name: str) -> RawKernel: ...
    def get_global(self, name: str) -> DevicePointer: ...
    def get_lowered_name(self, name_expression: str) -> str: ...

class RawKernel:
    module: RawModule
    name: str
    code: str
    options: tuple[str, ...]
    def __init__(
        self,
        code: str,
        name: str,
        options: Sequence[str] = (),
        backend: str = "nvrtc",
        translate_cucomplex: bool = False,
        enable_cooperative_groups: bool = False,
        jitify: bool = False,
        *,
        cache_dir: str | bool | None = None,
    ) -> None: ...
    def __call__(
        self,
        grid: int | tuple[int, ...],
        block: int | tuple[int, ...],
        args: tuple[Any, ...] | list[Any],
        *,
        shared_mem: int = 0,
        stream: Any = None,
    ) -> None: ...
    def compile(self, log_stream: IO[str] | None = None) -> RawKernel: ...
    @property
    def attributes(self) -> dict[str, int]: ...
    @property
    def max_threads_per_block(self) -> int: ...
    @property
    def num_regs(self) -> int: ...
    @property
    def shared_size_bytes(self) -> int: ...
    @property
    def const_size_bytes(self) -> int: ...
    @property
    def local_size_bytes(self) -> int: ...
    @property
    def ptx_version(self) -> int: ...
    @property
    def binary_version(self) -> int: ...
    @property
    def max_dynamic_shared_size_bytes(self) -> int: ...
    @property
    def param_sizes(self) -> list[tuple[int, int]] | None: ...
