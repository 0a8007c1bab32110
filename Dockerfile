# The service's image on the current Node.js LTS (24). The build stage has the tools better-sqlite3
# compiles with (the embedded stores serve the CLI's offline commands and a run without
# EVENTSTORE_URL/MONGODB_URL); the runtime stage is the slim image, run as the unprivileged `node` user.
FROM node:24-bookworm AS dependencies
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
# The service bundled into dist/ (build.mjs), as `npm start` runs it: no TypeScript compiled at run time.
COPY build.mjs tsconfig.json ./
COPY src ./src
RUN node build.mjs

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production PORT=3000 DATA_DIR=/data
COPY --from=dependencies /app/node_modules ./node_modules
COPY --from=dependencies /app/dist ./dist
# The sources stay for the CLI (`npm run cli`, through tsx).
COPY package.json tsconfig.json ./
COPY src ./src
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
# Liveness: the process answers (readiness, the read models caught up, is /health/ready).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Run node directly (not npm start) so that SIGTERM reaches the service and it shuts down cleanly;
# npm start's arguments (the tracing preload loads nothing without OTEL_EXPORTER_OTLP_ENDPOINT).
CMD ["node", "--enable-source-maps", "--max-old-space-size=320", "--import", "./dist/preload.mjs", "dist/main.mjs"]
