"""A package's public names, loaded on first use (PEP 562): importing one light
module of a package (``ginnyo.simulation.choices`` for the command line's
parser) then loads that module alone, not the whole package."""

from __future__ import annotations

import importlib
from typing import Any, Callable


def lazy_names(package: str, modules: dict[str, list[str]]) -> Callable[[str], Any]:
    """The ``__getattr__`` of ``package``: each name of ``modules[module]`` is
    read from its submodule ``module`` the first time it is asked for."""
    homes = {name: module for module, names in modules.items() for name in names}

    def __getattr__(name: str) -> Any:
        module = homes.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{module}"), name)

    return __getattr__


__all__ = ["lazy_names"]
