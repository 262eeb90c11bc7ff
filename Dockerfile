# Caravanserai: the app image. Built as a host installs it without Docker (docs/hosting.md): the
# wheel is built from the sources, installed with the pinned versions of constraints.txt, and the
# console script runs it; migrations are applied when it starts (`caravanserai serve`).
ARG PYTHON_IMAGE=python:3.11-slim-bookworm

FROM ${PYTHON_IMAGE} AS build
# A C compiler for Nomadi's move generator (app/rulesets/nomadi/_movegen.c): without it the build
# still succeeds, and the image runs the slower pure-Python generator. Only this stage has it.
RUN apt-get update \
 && apt-get install -y --no-install-recommends gcc libc6-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /wheels .

FROM ${PYTHON_IMAGE}
# pg_dump/pg_restore of the database server's major version (docker-compose.yml runs postgres:16),
# for `caravanserai backup` and `restore`; Debian's own client is older. PostgreSQL's apt
# repository, set up with its postgresql-common script (the key ships in that package).
ARG PG_MAJOR=16
RUN apt-get update \
 && apt-get install -y --no-install-recommends postgresql-common \
 && /usr/share/postgresql-common/pgdg/apt.postgresql.org.sh -y \
 && apt-get install -y --no-install-recommends "postgresql-client-${PG_MAJOR}" \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /wheels /tmp/wheels
COPY constraints.txt /tmp/constraints.txt
# redis: the client of the optional Redis rate-limit store (the package's `redis` extra), so that
# CARAVANSERAI_RATE_LIMIT_STORAGE=redis://... works without another image.
RUN pip install --no-cache-dir --constraint /tmp/constraints.txt /tmp/wheels/caravanserai-*.whl redis \
 && rm -rf /tmp/wheels /tmp/constraints.txt
COPY --chmod=0755 scripts/backup_schedule.sh /usr/local/bin/caravanserai-backup-schedule
ENV PYTHONUNBUFFERED=1 \
    CARAVANSERAI_HOST=0.0.0.0 \
    CARAVANSERAI_PORT=8000 \
    CARAVANSERAI_SECRET_KEY_FILE=/data/secret
RUN useradd --create-home --uid 10001 caravanserai && mkdir /data && chown caravanserai /data
# An empty working folder: the installed package carries everything it serves.
WORKDIR /data
USER caravanserai
EXPOSE 8000
# Asks the port serve listens on (CARAVANSERAI_PORT, as the container's environment sets it).
HEALTHCHECK --interval=30s --timeout=5s --start-period=40s \
  CMD python -c "import os,urllib.request,sys; port=os.environ.get('CARAVANSERAI_PORT') or '8000'; sys.exit(0 if urllib.request.urlopen(f'http://127.0.0.1:{port}/healthz', timeout=4).status == 200 else 1)"
CMD ["caravanserai", "serve"]
