# syntax=docker/dockerfile:1.7-labs
# One image for every server process of Spark; the command picks the app:
#   docker run spark node dist/apps/leads-service/src/main.js
# The gateway (the default command) also serves the built SPA from /app/dist/web.

# Node 24 LTS; keep the minor in step with .nvmrc (what .ci/run and the README install).
FROM node:24.21-bookworm-slim AS build
WORKDIR /app
# The dependency layer first, from the manifests alone: a change to the sources reuses it from the cache.
COPY package.json package-lock.json ./
COPY --parents apps/*/package.json libs/*/package.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# The browser's packages (React, the router, …) live in devDependencies: Vite bundles them into dist/web,
# so pruning leaves the runtime image only what the server processes load.
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund

FROM node:24.21-bookworm-slim AS runtime
# Fewer glibc malloc arenas: libvips (sharp, photo re-encoding) threads otherwise fragment memory (sharp's advice).
ENV MALLOC_ARENA_MAX=2
ENV NODE_ENV=production \
    WEB_DIST=/app/dist/web \
    PORT=8080 \
    HEALTH_PORT=8081
WORKDIR /app
# Owned by root, readable by all: the process (user node) cannot rewrite its own code or dependencies.
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
USER node
EXPOSE 8080 8081
# The gateway's heap bounded as deploy/base/gateway.yaml runs it (docs/decisions.md); a test holds the two equal.
CMD ["node", "--enable-source-maps", "--max-semi-space-size=8", "--heap-growing-percent=50", "--no-concurrent-recompilation", "dist/apps/gateway/src/main.js"]
