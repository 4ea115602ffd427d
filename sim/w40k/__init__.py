"""The 7th-edition core in Python: profiles, rule tables, the catalogue, exchanges and exact odds."""
