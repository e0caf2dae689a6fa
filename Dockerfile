# Switchboard's image: `docker build -t switchboard .` (see docs/deployment.md).
# Three stages: dependencies, the Next.js build, and a runtime holding only what `node server.mjs`
# reads: the build, the production packages plus tsx, and the sources it reads at run time.

ARG NODE_IMAGE=node:22-bookworm-slim

# ---- deps: every package, as the lockfile says ----
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

# ---- build: `next build` (it type-checks every .ts file tsconfig.json includes) ----
FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY --from=deps /app/node_modules ./node_modules
COPY . .
RUN npx next build && rm -rf .next/cache

# ---- prod-deps: production packages only, plus tsx ----
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
# tsx is a devDependency, but the demo stdio servers run as `node --import tsx demo-servers/<x>.ts`
# and the CLI (bin/switchboard.mjs) loads cli/index.ts through it: copy it and what it needs
# (esbuild, with its platform's binary in @esbuild/).
COPY --from=deps /app/node_modules/tsx ./node_modules/tsx
COPY --from=deps /app/node_modules/esbuild ./node_modules/esbuild
COPY --from=deps /app/node_modules/@esbuild ./node_modules/@esbuild

# ---- runtime ----
FROM ${NODE_IMAGE} AS runtime
# tini as PID 1: it forwards SIGTERM to node (the graceful shutdown) and reaps the processes that
# stdio MCP servers leave behind, which would otherwise stay zombies in a container.
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV HOST=0.0.0.0 \
    PORT=3000 \
    NODE_ENV=production \
    SWITCHBOARD_DATA_DIR=/data \
    NEXT_TELEMETRY_DISABLED=1
# Everything is owned by root and read-only to the app, except /data and the demo's notes folder.
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/.next ./.next
# Read at run time: server.mjs; next.config.ts (loaded by next() at start) and what it imports;
# db/migrations (lib/db/client.ts migrates from <cwd>/db/migrations at every start); the demo
# servers (lib/demo/demo-servers.ts); bin/ and cli/ for `switchboard` inside the container.
COPY package.json server.mjs next.config.ts tsconfig.json ./
COPY db ./db
COPY lib ./lib
COPY demo-servers ./demo-servers
COPY bin ./bin
COPY cli ./cli
# 1000 is the `node` user of the official image; numeric so Kubernetes' runAsNonRoot can verify it.
RUN mkdir -p /data demo-servers/sandbox/notes/inbox \
  && chown 1000:1000 /data demo-servers/sandbox/notes/inbox \
  && chmod 0700 /data
VOLUME /data
USER 1000:1000
EXPOSE 3000
# Liveness (GET /api/v1/health never asks the database); load balancers use /api/v1/health/ready.
# The slim image has no curl: node's fetch. 127.0.0.1 is always an allowed Host.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/v1/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "server.mjs"]
