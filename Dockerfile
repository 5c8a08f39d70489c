# Meeple Hall in a container (see README.md, "Docker"):
#   docker build -t meeple-hall .
#   docker run -d -e DISCORD_TOKEN=... -v meeple-hall-data:/data meeple-hall
# Needs BuildKit (the default builder since Docker 23) for the RUN --mount below.

# Build stage: wheels of the project and of every dependency, so that the final image holds
# neither the source nor anything to build with.
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY meeple_hall ./meeple_hall
COPY bot ./bot
COPY games ./games
COPY renderers ./renderers
COPY data ./data
RUN pip wheel --wheel-dir /wheels .

# Run stage: the installed package, an unprivileged user, the database on a volume.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore
RUN useradd --create-home --uid 10001 --user-group meeple \
    && mkdir /data \
    && chown meeple:meeple /data
# The wheels are mounted from the build stage for this step only: no layer keeps them.
RUN --mount=type=bind,from=build,source=/wheels,target=/wheels \
    pip install --no-index --find-links=/wheels meeple-hall
ENV DATABASE_URL=sqlite:////data/meeple-hall.db
VOLUME /data
USER meeple
WORKDIR /home/meeple
# Python turns SIGINT into KeyboardInterrupt, on which discord.py closes the bot (and with it
# the store) cleanly; as PID 1 without a handler, SIGTERM would be ignored until the kill.
STOPSIGNAL SIGINT
CMD ["meeple-hall"]
