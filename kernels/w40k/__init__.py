"""The 7th-edition core shared by the Warhammer-based rulesets: attack specs and attack resolution."""
