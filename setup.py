"""Build the compiled core; everything else about the package is in pyproject.toml."""

from Cython.Build import cythonize
from setuptools import Extension, setup

COMPILER_DIRECTIVES = {
    "language_level": 3,
    "boundscheck": False,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": False,
}

extensions = [
    Extension("ginnycore.core", ["src/ginnycore/core.pyx"],
              extra_compile_args=["-O3", "-fopenmp"], extra_link_args=["-fopenmp"]),
]

setup(ext_modules=cythonize(extensions, compiler_directives=COMPILER_DIRECTIVES,
                            include_path=["src"]))
