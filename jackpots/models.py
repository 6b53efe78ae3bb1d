"""Models of this app arrive with their issues."""
