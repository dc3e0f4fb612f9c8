# syntax=docker/dockerfile:1
# Builds the single callreview executable, then runs it on a slim Debian as a non-root user.

# ---- build: Node 20 + the toolchain better-sqlite3 and the SIMD whisper.cpp and llama.cpp builds need for `npm ci` ----
FROM node:20-bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ cmake ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY package.json package-lock.json ./
# native/: the postinstall's build scripts and the empty package the lock's overrides point at.
COPY native ./native
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && ./dist/callreview --version

# ---- runtime: only the executable and the libraries the whisper.cpp and llama.cpp engines link against ----
FROM debian:bookworm-slim AS runtime
RUN apt-get update \
 && apt-get install -y --no-install-recommends libgomp1 libstdc++6 ca-certificates curl ffmpeg \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 callreview \
 && useradd --system --uid 10001 --gid callreview --home-dir /data --shell /usr/sbin/nologin callreview \
 && mkdir -p /data /models \
 && chown callreview:callreview /data /models
COPY --from=build /src/dist/callreview /usr/local/bin/callreview

ENV CALLREVIEW_DATA_DIR=/data \
    CALLREVIEW_MODELS_DIR=/models \
    CALLREVIEW_HOST=0.0.0.0 \
    CALLREVIEW_PORT=8080
# Recordings and the database live in /data; model files are carried in by hand to /models.
VOLUME ["/data", "/models"]
USER callreview
WORKDIR /data
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD curl -fsS http://127.0.0.1:8080/healthz || exit 1
ENTRYPOINT ["/usr/local/bin/callreview"]
CMD ["serve"]
