"""The computer's arcade-specific play."""
