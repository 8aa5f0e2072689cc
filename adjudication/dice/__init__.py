"""Rule engines of the sixteen dice games of the rules texts, and the player inputs they read."""
