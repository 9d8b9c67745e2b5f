# Cython's declarations for draft.py, read only when setup.py compiles it (the sources run without them).
# The Draft becomes a C class: its attributes are fields of a C struct, which its own methods read directly
# instead of looking them up by name (docs/simulate.md, "C classes where every input goes"). Keep this file in
# step with Draft.__slots__: a C class has no __dict__, so an attribute missing here raises AttributeError in the
# compiled build when it is set (tests/test_compiled_engine.py fails in CI, where the compiled build is required).

cdef class Draft:
    cdef public dict state
    cdef public list events
    cdef public bint barrier, words
    cdef public object namer
    cdef dict _players
    cdef object _copied  # a set, or None
    cdef bint _decks_copied
