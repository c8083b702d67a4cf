"""Benchmarks run by hand (`python -m tests.benchmarks.<name>`), never collected by pytest."""
