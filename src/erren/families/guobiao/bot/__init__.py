"""The computer's guobiao-specific play."""
