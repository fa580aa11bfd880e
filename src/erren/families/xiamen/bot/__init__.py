"""The computer's xiamen-specific play."""
