"""The tablet pages of devices and decks: each table's shuffler and dealing shoe, and a banked table's decks."""
