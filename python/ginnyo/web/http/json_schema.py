"""The one shape of an object schema the API's schemas (:mod:`.api_schemas`, :mod:`.club_schemas`) build on."""

from __future__ import annotations

from typing import Any


def object_schema(properties: dict[str, Any], required: tuple[str, ...] = (), closed: bool = True,
                  **more: Any) -> dict[str, Any]:
    """An object schema; ``closed``: unknown fields are refused (the handler's ``only_fields``)."""
    schema: dict[str, Any] = {"type": "object", "properties": properties, **more}
    if required:
        schema["required"] = list(required)
    if closed:
        schema["additionalProperties"] = False
    return schema


__all__ = ["object_schema"]
