# syntax=docker/dockerfile:1
# Build stage: full dependencies, compile TypeScript (the swagger CLI plugin runs here).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/react-native-card/package.json packages/react-native-card/package.json
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY kernel kernel
COPY src src
COPY sandbox sandbox
COPY migrations migrations
COPY scripts scripts
RUN npx nest build

# Runtime stage: production dependencies only, non-root, no build tools. The embedded
# PostgreSQL (an optional dependency, for the two-command local default) is left out: the
# image runs against DATABASE_URL. scripts/prune-runtime.js drops what is never loaded.
FROM node:24-bookworm-slim AS runtime-deps
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/react-native-card/package.json packages/react-native-card/package.json
COPY scripts/prune-runtime.js /tmp/prune-runtime.js
RUN npm ci --omit=dev --omit=optional --no-audit --no-fund --ignore-scripts && node /tmp/prune-runtime.js node_modules && rm /tmp/prune-runtime.js && npm cache clean --force
# DATA_DIR, owned by the user the apps run as: the sandbox writes its PSP's development PKI there
# (a named volume mounted here starts with this owner), the service reads that PKI from it.
ENV DATA_DIR=/app/.data
RUN mkdir -p /app/.data && chown node:node /app/.data
# The sandbox app for a staging environment (`docker build --target sandbox`): the kernel it
# builds on and its own code, none of the service's; the service's image below has none of the
# sandbox's.
FROM runtime-deps AS sandbox
# The sandbox PSP makes its mutual-TLS PKI with the openssl command (kernel/platform/tls).
RUN apt-get update && apt-get install -y --no-install-recommends openssl && rm -rf /var/lib/apt/lists/*
# Its API Pix server listens on every interface in a container: the service's container calls it.
ENV SANDBOX_PSP_HOST=0.0.0.0
COPY --from=build /app/dist/kernel dist/kernel
COPY --from=build /app/dist/sandbox dist/sandbox
USER node
EXPOSE 3001 3002
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.SANDBOX_PORT||3001)+'/health/live').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "dist/sandbox/src/main.js"]

# The service (the default target: the last stage).
FROM runtime-deps AS runtime
COPY --from=build /app/dist/kernel dist/kernel
COPY --from=build /app/dist/src dist/src
COPY --from=build /app/dist/migrations dist/migrations
COPY --from=build /app/dist/scripts dist/scripts
USER node
EXPOSE 3000
# Kubernetes sends SIGTERM; node is PID 1 here and handles it (readiness 503, drain, close).
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:3000/health/live').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "dist/src/main.js"]
