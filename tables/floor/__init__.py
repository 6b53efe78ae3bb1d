"""Tablet pages of the tables app: every table, opened and closed by a floorperson or above."""
