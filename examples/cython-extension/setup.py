"""Build the example extension against the installed ginnycore package's .pxd files."""

import os

import ginnycore
from Cython.Build import cythonize
from setuptools import Extension, setup

# the directory holding the ginnycore package, so `cimport ginnycore.core` finds core.pxd
GINNYCORE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(ginnycore.__file__)))

setup(
    name="ginny-count",
    version="0.1.0",
    ext_modules=cythonize([Extension("ginny_count", ["ginny_count.pyx"])],
                          compiler_directives={"language_level": 3},
                          include_path=[GINNYCORE_PARENT]),
)
