# syntax=docker/dockerfile:1
# hotdeath's container image: `hotdeath serve` on an SQLite file in the volume /data, run as
# a user without privileges, with a health check. docs/deploy.md tells how to use it:
#
#   docker build -t hotdeath .
#   docker run -d --name hotdeath -p 8000:8000 -v hotdeath-data:/data hotdeath
#
# Build arguments: BASE, the Python image to build on (any Debian-like image with python3
# and its venv module); COMPILE=1 compiles the rules core with mypyc (about twice as fast
# bots and searches; the build takes a few minutes longer).
ARG BASE=python:3.12-slim-bookworm

FROM ${BASE} AS build
ARG COMPILE=0
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1
RUN if [ "$COMPILE" = 1 ]; then \
        pkgs="gcc libc6-dev"; \
        python3 -c 'import os, sys, sysconfig; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' \
            || pkgs="$pkgs python3-dev"; \
        apt-get update && apt-get install -y --no-install-recommends $pkgs \
        && rm -rf /var/lib/apt/lists/*; \
    fi
WORKDIR /src
COPY pyproject.toml setup.py MANIFEST.in README.md LICENSE ./
COPY build_backend build_backend
COPY scripts/build_mypyc.py scripts/build_mypyc.py
COPY src src
RUN python3 -m venv /opt/hotdeath \
    && HOTDEATH_COMPILE="$COMPILE" /opt/hotdeath/bin/pip install ".[postgres]" \
    && /opt/hotdeath/bin/hotdeath --version

FROM ${BASE}
RUN useradd --system --user-group --uid 10001 --home-dir /data --no-create-home \
        --shell /usr/sbin/nologin hotdeath \
    && mkdir -p /data && chown hotdeath:hotdeath /data && chmod 0750 /data
COPY --from=build /opt/hotdeath /opt/hotdeath
COPY deploy/entrypoint.sh /usr/local/bin/hotdeath-entrypoint
ENV PATH=/opt/hotdeath/bin:$PATH \
    HOTDEATH_DATABASE_URL=sqlite:////data/hotdeath.sqlite3 \
    HOTDEATH_PORT=8000 \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1
USER hotdeath:hotdeath
WORKDIR /data
VOLUME ["/data"]
EXPOSE 8000
# SIGTERM: the server writes what is queued and gives its tables' leases back, then stops
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python3", "-m", "hotdeath.server.health"]
ENTRYPOINT ["hotdeath-entrypoint"]
CMD ["serve"]
