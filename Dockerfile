# Caravanserai: the app image. Migrations run when the container starts (`caravanserai serve`).
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md alembic.ini ./
COPY app ./app
COPY migrations ./migrations
COPY static ./static
RUN pip install --no-cache-dir --prefix=/install .

FROM python:3.11-slim
ENV PYTHONUNBUFFERED=1 \
    CARAVANSERAI_HOST=0.0.0.0 \
    CARAVANSERAI_PORT=8000 \
    CARAVANSERAI_SECRET_KEY_FILE=/data/secret
RUN useradd --create-home --uid 10001 caravanserai && mkdir /data && chown caravanserai /data
COPY --from=build /install /usr/local
WORKDIR /srv/caravanserai
COPY --chown=caravanserai alembic.ini ./
COPY --chown=caravanserai app ./app
COPY --chown=caravanserai migrations ./migrations
COPY --chown=caravanserai static ./static
USER caravanserai
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s \
  CMD python -c "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/healthz').status == 200 else 1)"
CMD ["python", "-m", "app.cli", "serve"]
