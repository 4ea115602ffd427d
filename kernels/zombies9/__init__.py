"""Zombies!!! with Ashes to Ashes (zombies-ashes-to-ashes.md): the kernels of one game.

``layout`` names every index (state columns, table columns, parameters, policy fields, card
effects, event kinds); ``state`` holds the batch state and the rule tables; ``board`` the tile
grid (placement legality with rotations, squares, doors, distance fields); ``pieces`` zombies,
kids, dogs and tokens on squares; ``combat`` the fight; ``cards`` the event deck and every
card's effect; ``policy`` the players' choices (Q1-Q9); ``movement`` players and zombies;
``turn`` the six-step turn, the game and ``play_batch``.
"""
