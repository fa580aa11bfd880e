"""The guobiao fans, one module per category so that each fan has a home a reader can find:

========================  =====================================================================
:mod:`.honors`            wind and dragon pungs, 大四喜 … 箭刻, 字一色
:mod:`.pungs`             concealed pungs, all pungs, kongs, shifted and triple pungs, 四归一
:mod:`.chows`             straights, identical, shifted and terminal chows, 平和
:mod:`.suits`             flushes, 绿一色, voided suits, tile ranges, 推不倒
:mod:`.terminals`         清幺九, 混幺九, 全带幺, 全带五, 断幺, 幺九刻
:mod:`.shapes`            九莲宝灯, 七对, 连七对, 十三幺, the knitted hands
:mod:`.wins`              how the hand was won: last tile, kongs, concealment, waits, 自摸,
                          天胡/地胡/天听/报听, the fallback 无番和/屁胡
:mod:`.flowers`           花牌/补花
:mod:`.tables`            the rows of tables `gb` and `2p` in table order
========================  =====================================================================
"""

from __future__ import annotations

from erren.families.guobiao.scoring.fans.tables import (
    ABSORBS,
    CATEGORIES,
    DETECTORS,
    EXCLUDES,
    FANS_2P,
    FANS_GB,
    GUARDS,
    PER,
    TABLES,
    fan_table,
)

__all__ = [
    "ABSORBS",
    "CATEGORIES",
    "DETECTORS",
    "EXCLUDES",
    "FANS_2P",
    "FANS_GB",
    "GUARDS",
    "PER",
    "TABLES",
    "fan_table",
]
