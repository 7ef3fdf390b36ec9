"""The interface language: catalogues, the /zh/ and /en/ prefix, the chrome of every page, Datasette's own pages."""
