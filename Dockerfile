# syntax=docker/dockerfile:1
# One image for every service of the crawl data service. The process runs the TypeScript sources
# with Node's type stripping (no build step); the service(s) it runs come from `--target=<name>`
# (container args) or the TARGET env var, e.g.
#   docker build -t crawl-data-service .
#   docker run -p 3000:3000 crawl-data-service                       # all-in-one, embedded storage
#   docker run -e MONGO_URL=… -e REDIS_URL=… -e JWT_SECRET=… crawl-data-service --target=catalog
# Kubernetes manifests: deploy/k8s (docs/deploy.md).

ARG NODE_IMAGE=node:24-slim
ARG PNPM_VERSION=10.34.9

# ---- deps: production dependencies of every workspace package, from the lockfile only ----------
FROM ${NODE_IMAGE} AS deps
ARG PNPM_VERSION
ENV CI=true PNPM_HOME=/pnpm
ENV PATH=$PNPM_HOME:$PATH
RUN npm install --global --no-audit --no-fund "pnpm@${PNPM_VERSION}" && npm cache clean --force
WORKDIR /app
# `pnpm fetch` needs only the lockfile: this layer is rebuilt when dependencies change, not code.
COPY pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
RUN pnpm fetch --prod
COPY . .
# argon2 (the only dependency with an install script, see pnpm.onlyBuiltDependencies) ships
# prebuilt binaries for linux x64/arm64 (glibc and musl), so no compiler is needed.
RUN pnpm install --offline --frozen-lockfile --prod

# ---- runtime: sources + production node_modules, non-root -----------------------------------
FROM ${NODE_IMAGE} AS runtime
# MALLOC_ARENA_MAX, --max-semi-space-size and --heap-growing-percent: the same memory tuning as
# `pnpm start` (docs/deploy.md, "Memory"): fewer malloc arenas, a smaller young generation and an
# old generation that grows by half its live size, not several times it, keep RSS near half of
# Node's defaults at the same throughput.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    MALLOC_ARENA_MAX=2
WORKDIR /app
# Owned by root and read-only for the service user; only DATA_DIR is writable.
COPY --from=deps /app /app
RUN mkdir -p /data && chown 1000:1000 /data
# The `node` user of the official image (uid 1000); numeric so runAsNonRoot can verify it.
USER 1000:1000
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Node is PID 1 and handles SIGTERM itself (graceful drain, see SHUTDOWN_GRACE_MS).
ENTRYPOINT ["node", "--max-semi-space-size=16", "--heap-growing-percent=30", "--experimental-strip-types", "--disable-warning=ExperimentalWarning", "apps/server/src/bin.ts"]
CMD []
