"""The Bad Beat's tablet pages."""
