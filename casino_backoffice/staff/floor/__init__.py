"""The kernel's tablet pages: sign in and out, the home page of each role, the signing PIN."""
