"""Search at request time: what a query means, ranking, what a result shows, citations typed any way."""
