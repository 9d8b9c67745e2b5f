# Cython's declarations for property.py, read only when setup.py compiles it (the sources run without them): the
# property bot is a C class (see strategy.pxd). Every attribute it sets is declared here (one missing raises
# AttributeError in the compiled build: see engine/draft.pxd).

from companion.sim.strategy cimport Strategy


cdef class PropertyStrategy(Strategy):
    cdef public object params, streets, jail_cards, cheapest_lift, cheapest_house
    cdef public dict price, house, mortgage_value, rents, group_of, groups, street_groups, _records
    cdef public dict _offers, _offered_on, _group_sites, _rest_owners
    cdef public object _holdings, _spaces, _rest_of_spaces, _owner_pickers
