"""Build the compiled core; everything else about the package is in pyproject.toml."""

import platform

from Cython.Build import cythonize
from setuptools import Extension, setup

COMPILER_DIRECTIVES = {
    "language_level": 3,
    "boundscheck": False,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": False,
}

# the hardware popcount instruction (every x86-64 since 2008) instead of a libgcc call
POPCOUNT = ["-mpopcnt"] if platform.machine() in ("x86_64", "AMD64") else []

extensions = [
    Extension(f"ginnycore.{name}", [f"src/ginnycore/{name}.pyx"],
              extra_compile_args=["-O3", "-fopenmp"] + POPCOUNT, extra_link_args=["-fopenmp"])
    for name in ("board", "core", "rules", "selfplay", "crazy", "endgame", "equity", "parse", "simulate", "infer")
]

setup(ext_modules=cythonize(extensions, compiler_directives=COMPILER_DIRECTIVES,
                            include_path=["src"]))
