# Cython's declarations for strategy.py, read only when setup.py compiles it (the sources run without them): the
# Strategy becomes a C class whose own methods read its attributes from a C struct (see engine/draft.pxd).
# Subclasses written in Python keep a __dict__ for attributes of their own.

cdef class Strategy:
    cdef public object ruleset, board, rng, choices
    cdef public dict _seats, _handlers
