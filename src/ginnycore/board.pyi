"""Type stubs for the compiled :mod:`ginnycore.board`: it has no Python-visible
API (its functions are ``cdef``, reached from Cython through board.pxd)."""
