# calbridge container image: one process, one SQLite file on the /data volume.
# Build: docker build -t calbridge .
# Run:   docker run -v calbridge-data:/data -v ./config.yaml:/config/config.yaml:ro -p 8080:8080 calbridge

# --- build stage: builds the TypeScript sources into plain JavaScript, one minified bundle (dist/)
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json ./
COPY scripts/build.js scripts/modern-node.js ./scripts/
COPY src ./src
# prepare (scripts/build.js) bundles src/ into dist/
RUN npm ci --no-audit --no-fund

# --- runtime stage: Node 24, the compiled output and production dependencies only (no TypeScript,
# tsx or esbuild; better-sqlite3 brings its own prebuilt binary, so no compiler either), non-root
FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    CALBRIDGE_CONFIG=/config/config.yaml \
    CALBRIDGE_DATABASE_PATH=/data/calbridge.db
WORKDIR /app
COPY package.json package-lock.json config.example.yaml ./
COPY scripts/build.js scripts/modern-node.js ./scripts/
COPY bin ./bin
COPY --from=build /app/dist ./dist
# prepare finds dist/ built and no esbuild, and leaves it as it is
RUN npm ci --omit=dev --no-audit --no-fund \
 && npm cache clean --force \
 && ln -s /app/bin/calbridge.js /usr/local/bin/calbridge \
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
