"""Build the C kernel of the hand analysis (the rest of the package is pure Python)."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "erren.analysis._kernel",
            sources=["src/erren/analysis/_kernel.c"],
            extra_compile_args=["-O2", "-std=c11", "-Wall", "-Wextra"],
        )
    ]
)
