"""bobing_vision: read a Bobing (博饼) throw from a camera over a bowl and keep the table's game."""

__version__ = "0.1.0"
