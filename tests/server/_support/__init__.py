"""Support code of the server tests (not test modules; pytest collects nothing here).

``harness`` starts ``erren serve`` in a subprocess on SQLite or PostgreSQL; ``helpers`` drives
players and tables; ``leaks`` is the hidden-information audit of every message a seat receives;
``beans_play`` finds and plays hands with a chosen outcome for the exact-bean tests.
"""
