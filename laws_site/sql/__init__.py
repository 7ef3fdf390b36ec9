"""SQL on the public site: limits on every connection, the public SQL gate, Datasette's own table pages."""
