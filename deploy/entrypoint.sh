#!/bin/sh
# The container image's entrypoint (Dockerfile).
#
#   serve [OPTIONS]      the default: `hotdeath serve` on every address of the container,
#                        port $HOTDEATH_PORT (8000), with OPTIONS added (`--bot-delay 1` …)
#   --OPTION …           the same: options for serve
#   anything else        run as given: `hotdeath variants`, `sh`, …
#
# The database is $HOTDEATH_DATABASE_URL: by default the image's SQLite file in the volume
# /data; a postgresql+psycopg:// URL for several processes (compose.yaml, docs/deploy.md).
set -eu

port="${HOTDEATH_PORT:-8000}"

if [ "$#" -eq 0 ] || [ "$1" = serve ] || [ "${1#-}" != "$1" ]; then
    if [ "$#" -gt 0 ] && [ "$1" = serve ]; then
        shift
    fi
    case "${HOTDEATH_DATABASE_URL:-}" in
        sqlite:*)
            # the volume must be writable by this user (uid $(id -u)): say so plainly
            dir=$(dirname "${HOTDEATH_DATABASE_URL#sqlite:///}")
            if [ -d "$dir" ] && ! [ -w "$dir" ]; then
                echo "hotdeath: cannot write to $dir (the database's folder) as user $(id -u);" \
                    "give that user the volume: chown $(id -u) on the host's folder" >&2
                exit 1
            fi
            ;;
    esac
    echo "hotdeath: serving in a container on port $port; open the address and port this" \
        "container is published at (docker run -p 8000:$port … → http://localhost:8000/)"
    exec hotdeath serve --host 0.0.0.0 --port "$port" "$@"
fi
exec "$@"
