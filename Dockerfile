# The service's image: Node 20 with the build tools better-sqlite3 compiles with (the embedded event
# store is still used by the CLI's offline commands and by a service run without EVENTSTORE_URL).
FROM node:20-bookworm
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
ENV NODE_ENV=production PORT=3000 DATA_DIR=/data
VOLUME /data
EXPOSE 3000
# Run node directly (not npm start) so that SIGTERM reaches the service and it shuts down cleanly.
CMD ["node", "--import", "tsx", "src/main.ts"]
