# calbridge container image: one process, one SQLite file on the /data volume.
# Build: docker build -t calbridge .
# Run:   docker run -v calbridge-data:/data -v ./config.yaml:/config/config.yaml:ro -p 8080:8080 calbridge

# --- build stage: compiles better-sqlite3 for this image's Node, installs production dependencies only
FROM node:22-bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY bin ./bin
COPY src ./src
COPY tsconfig.json config.example.yaml ./

# --- runtime stage: no compilers, non-root
FROM node:22-bookworm-slim
ENV NODE_ENV=production \
    CALBRIDGE_CONFIG=/config/config.yaml \
    CALBRIDGE_DATABASE_PATH=/data/calbridge.db
WORKDIR /app
COPY --from=build /app /app
RUN ln -s /app/bin/calbridge.js /usr/local/bin/calbridge \
 && mkdir -p /data /config \
 && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
# server.port must stay 8080 inside the container for this check (map another host port with -p).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8080/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The entry is calbridge itself (not npm), so SIGTERM reaches it and it stops gracefully.
ENTRYPOINT ["calbridge"]
CMD ["serve"]
