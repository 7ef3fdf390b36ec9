"""How the site answers over HTTP: the ASGI rules, request bounds, responses and errors, the server process."""
