"""Bundled example game files."""
