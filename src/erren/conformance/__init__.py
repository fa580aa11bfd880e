"""The conformance corpus: erren's answers on winning hands, shapes and action sequences, as
JSON lines another engine can check itself against (``conformance/README.md``).

* :mod:`~erren.conformance.rows` — the format: the kinds of row, their fields, reading a file;
* :mod:`~erren.conformance.expect` — what erren answers for a row's input (the one definition
  the generator writes and the checker compares);
* :mod:`~erren.conformance.check` — ``erren conformance FILE``;
* :mod:`~erren.conformance.generate` — ``python -m erren.conformance.generate`` rebuilds the
  files from a seed, cross-checked against PyMahjongGB and ``mahjong``.
"""
