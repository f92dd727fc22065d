"""Each game's editor screen, named by the game's system (GameSystem.editor_screen)."""
