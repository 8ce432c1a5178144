"""A designer's own game: the contract every game passes, and a new game's skeleton."""
