"""The ``guobiao`` family: :mod:`.game` (rules flow, data, hooks), :mod:`.scoring`, :mod:`.bot`."""
