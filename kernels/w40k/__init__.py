"""The 7th-edition core shared by the Warhammer-based rulesets: attack specs, attack resolution and
plane geometry."""
