"""What the apps use from the outside world and the processes they run in: announcing hints
over the channel layer, the embedded channel layer and broker transport, the Redis cache's
fallback, request timing, site-wide middleware, pages and mail, and the commands that start the
server and the workers. It imports none of the apps; `config/` wires it in."""
