"""A package's public names, loaded on first use (PEP 562): importing one light
module of a package (``ginnyo.simulation.choices`` for the command line's
parser) then loads that module alone, not the whole package."""

from __future__ import annotations

import importlib
import warnings
from typing import Any, Callable


def lazy_names(package: str, modules: dict[str, list[str]], moved: dict[str, str] | None = None
               ) -> Callable[[str], Any]:
    """The ``__getattr__`` of ``package``: each name of ``modules[module]`` is
    read from its submodule ``module`` the first time it is asked for; a name of
    ``moved`` (name -> its new module) is a deprecated alias, kept for one
    release (docs/API.md, "Deprecated names"), that warns where it is used."""
    homes = {name: f"{package}.{module}" for module, names in modules.items() for name in names}
    aliases = moved or {}

    def __getattr__(name: str) -> Any:
        if name in aliases:
            warnings.warn(f"{package}.{name} moved to {aliases[name]}.{name}", DeprecationWarning, stacklevel=2)
            return getattr(importlib.import_module(aliases[name]), name)
        module = homes.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(module), name)

    return __getattr__


__all__ = ["lazy_names"]
