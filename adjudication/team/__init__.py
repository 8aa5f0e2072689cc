"""Rule engines of the team sports: futsal, rugby-5 and rugby-7 (docs/architecture.md, "Team sports")."""
