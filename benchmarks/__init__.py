"""Benchmarks of erren against the reference libraries (``python -m benchmarks.bench_analysis``)."""
