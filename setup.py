"""Build the C extensions: the hand-analysis kernel and the fan calculator's fast path (the rest
of the package is pure Python)."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "erren.analysis._kernel",
            sources=["src/erren/analysis/_kernel.c"],
            extra_compile_args=["-O2", "-std=c11", "-Wall", "-Wextra"],
        ),
        Extension(
            "erren.scoring.guobiao._fastfan",
            sources=["src/erren/scoring/guobiao/_fastfan.c"],
            depends=["src/erren/scoring/guobiao/_fastfan_tables.h"],
            extra_compile_args=["-O2", "-std=c11", "-Wall", "-Wextra"],
        ),
    ]
)
