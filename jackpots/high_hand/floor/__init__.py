"""The High Hand's tablet pages."""
