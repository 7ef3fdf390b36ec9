"""The build: corpus -> laws.db, the only code that writes the database, and the `build`/`check` commands."""
