"""The support every layer stands on: files read bounded and written whole
(files), strict JSON (strict_json), signals and interrupts (interrupts), work
spread over processes or a Dask cluster (workers, process_pool, cluster),
JSON-lines files read in pieces (line_chunks) and lazily loaded package names
(lazy).  Nothing here knows the game."""
