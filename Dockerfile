# Switchboard in a container (ARCHITECTURE.md §18; README "Running on a server").
#
#   docker build -t switchboard .
#   docker run -d --name switchboard -v switchboard-data:/data --env-file .env -p 8787:8787 switchboard
#
# Build stage: the full Node image has python3, make and g++ for better-sqlite3's native addon when no
# prebuilt one can be fetched. It builds dist/, packs the package (`npm pack`) and installs that tarball
# without dev dependencies into /opt/switchboard — exactly what a user installs from the tarball.
FROM node:20-bookworm AS build
WORKDIR /src
COPY package.json package-lock.json ./
COPY scripts ./scripts
COPY src ./src
COPY bin ./bin
COPY config ./config
COPY README.md tsconfig.json ./
RUN npm ci --no-audit --no-fund \
 && npm pack --ignore-scripts --pack-destination /tmp \
 && mkdir -p /opt/switchboard \
 && cd /opt/switchboard \
 && npm install --omit=dev --no-audit --no-fund --no-save /tmp/switchboard-*.tgz \
 && npm cache clean --force

# Run stage: slim Node, the Debian tools the media features use (ffmpeg for voice notes), a non-root user.
FROM node:20-bookworm-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ffmpeg ca-certificates tini \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin switchboard \
 && mkdir -p /data && chown switchboard:switchboard /data
COPY --from=build --chown=root:root /opt/switchboard /opt/switchboard
ENV NODE_ENV=production \
    SWITCHBOARD_HOME=/data \
    SWITCHBOARD_CONSOLE_HOST=127.0.0.1 \
    SWITCHBOARD_HEALTH_PORT=8788 \
    PATH=/opt/switchboard/node_modules/.bin:$PATH
VOLUME ["/data"]
USER switchboard
WORKDIR /data
# The health server answers on loopback inside the container; /healthz needs no token.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:8788/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# SIGTERM drains: intake stops, leases go, running answers get gateway.shutdown_grace_seconds (20 s).
# Give `docker stop` more than that: docker stop -t 30 (compose: stop_grace_period).
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/tini", "--", "switchboard"]
CMD ["start"]
