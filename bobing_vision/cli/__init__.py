"""Thin command-line layer: one module per command, each with `main(argv) -> int`."""
