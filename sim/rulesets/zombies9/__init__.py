"""Zombies!!! with Ashes to Ashes (zombies-ashes-to-ashes.md)."""
