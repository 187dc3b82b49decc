"""Build the compiled core; everything else about the package is in pyproject.toml."""

import os
import platform

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

COMPILER_DIRECTIVES = {
    "language_level": 3,
    "boundscheck": False,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": False,
}

# the hardware popcount instruction (every x86-64 since 2008) instead of a libgcc call
POPCOUNT = ["-mpopcnt"] if platform.machine() in ("x86_64", "AMD64") else []

# the number of extensions translated and compiled at once: every core (GINNYO_BUILD_JOBS to set it)
JOBS = int(os.environ.get("GINNYO_BUILD_JOBS") or os.cpu_count() or 1)


class ParallelBuildExt(build_ext):
    """build_ext that compiles the extensions JOBS at a time unless told otherwise (-j N)."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:
            self.parallel = JOBS


extensions = [
    Extension(f"ginnycore.{name}", [f"src/ginnycore/{name}.pyx"],
              extra_compile_args=["-O3", "-fopenmp"] + POPCOUNT, extra_link_args=["-fopenmp"])
    for name in ("board", "core", "rules", "selfplay", "crazy", "endgame", "equity", "parse", "simulate", "infer")
]

setup(ext_modules=cythonize(extensions, compiler_directives=COMPILER_DIRECTIVES,
                            include_path=["src"], nthreads=JOBS),
      cmdclass={"build_ext": ParallelBuildExt})
