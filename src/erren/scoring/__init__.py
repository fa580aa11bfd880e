"""Scoring, one subpackage per rule family, each a table of rows evaluated by one routine:

* :mod:`erren.families.guobiao.scoring` — the Guobiao fans (tables ``2p`` and ``gb``), the counting
  principles and settlement (guobiao-2p §4–§6); ``score`` explains itself, ``score_fast`` is the
  same calculation in C;
* :mod:`erren.families.xiamen.scoring` — 水 items, win types, 底 and 连庄, settlement (xiamen.md
§4);
* :mod:`erren.families.arcade.scoring` — patterns and limit hands, the interpretation choice, points
  (arcade.md §4–§5).

A hand that does not win raises :class:`erren.errors.NotAWinError` in every family.
"""
