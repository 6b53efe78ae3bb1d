"""The progressive meters' tablet pages."""
