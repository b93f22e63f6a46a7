# The tavern server image: migrations at start, then uvicorn.
# docker compose up  (see docker-compose.yml) runs it with PostgreSQL + Redis.
FROM python:3.11-slim

# tzdata: the daily hands reset at midnight Europe/Paris (zoneinfo).
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends tzdata \
 && rm -rf /var/lib/apt/lists/*

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    TAVERN_DATA_DIR=/data

WORKDIR /app
COPY pyproject.toml README.md* ./
COPY src ./src
RUN pip install --no-cache-dir .
COPY alembic.ini ./
COPY migrations ./migrations

RUN useradd --create-home --uid 1000 tavern && mkdir -p /data && chown tavern /data
USER tavern
VOLUME /data
EXPOSE 8000

# One worker by default; more need TAVERN_REDIS_URL (the workers share the
# tables through leases in Redis): the app refuses them without it, saying why.
ENV TAVERN_WORKERS=1
# Seconds uvicorn's supervisor waits for a worker's health answer before it
# kills it (its default, 5, killed a worker paused or starved for 5 s, voiding
# its deals): as long as the cluster's hung-loop guard (tables/cluster.py
# HUNG_LOOP_SECONDS), docs/operations.md "Faults".
ENV TAVERN_WORKER_HEALTH_SECONDS=30
# /metrics reads every worker's figures from files here (prometheus-client's
# multiprocess mode), emptied at each start: the last run's are not ours.
ENV PROMETHEUS_MULTIPROC_DIR=/tmp/tavern-metrics
# `tavern migrate` = alembic upgrade head (alembic.ini is in /app).
# A SIGTERM: uvicorn gives the HTTP requests under way 10 s
# (--timeout-graceful-shutdown), then the drain lets the running deals end
# (TAVERN_DRAIN_SECONDS, 180 s): the orchestrator's stop grace must exceed
# both together (docker-compose.yml stop_grace_period, docs/operations.md).
CMD ["sh", "-c", "rm -rf \"$PROMETHEUS_MULTIPROC_DIR\" && mkdir -p \"$PROMETHEUS_MULTIPROC_DIR\" && tavern migrate && exec uvicorn tavern.web.app:create_app --factory --host 0.0.0.0 --port 8000 --workers ${TAVERN_WORKERS} --proxy-headers --timeout-graceful-shutdown 10 --timeout-worker-healthcheck ${TAVERN_WORKER_HEALTH_SECONDS} --ws tavern.web.wsproto:TableSocketProtocol"]
