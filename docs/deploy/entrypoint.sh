#!/bin/bash
# The container's one command: `bridge-laws serve` on loopback, HAProxy in front of it. Either ending
# ends the container (its platform restarts it); SIGTERM stops both. uvicorn itself replaces a worker
# that dies. Settings from the environment: LISTEN, SITE_PORT, BRIDGE_LAWS_DB, WORKERS, HAPROXY_CONFIG.
set -u
LISTEN=${LISTEN:-:8080}
SITE_PORT=${SITE_PORT:-8001}
BRIDGE_LAWS_DB=${BRIDGE_LAWS_DB:-/site/laws.db}
WORKERS=${WORKERS:-2}
HAPROXY_CONFIG=${HAPROXY_CONFIG:-/etc/haproxy/haproxy.cfg}

bridge-laws serve --db "$BRIDGE_LAWS_DB" --host 127.0.0.1 --port "$SITE_PORT" --workers "$WORKERS" &
site=$!
LISTEN=$LISTEN SITE=127.0.0.1:$SITE_PORT haproxy -db -f "$HAPROXY_CONFIG" &
proxy=$!

stop() { kill -TERM "$site" "$proxy" 2>/dev/null; }
trap stop TERM INT
wait -n "$site" "$proxy"
status=$?
stop
wait "$site" "$proxy"
exit "$status"
