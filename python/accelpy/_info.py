"""python -m accelpy info"""

import os
import platform

import numpy as np

import accelpy as ap


def info_text():
    lines = [f"accelpy {ap.__version__}",
             f"python {platform.python_version()}, numpy {np.__version__}",
             f"default device: {ap.get_default_device()}",
             f"cpu: {os.cpu_count()} cores, {ap._core._num_threads()} threads used"]
    return "\n".join(lines)
