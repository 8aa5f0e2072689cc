"""Rule engines of the billiard games: snooker, 14.1 continuous, Russian pyramid, five-pins."""
