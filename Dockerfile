# syntax=docker/dockerfile:1
# Build stage: full dependencies, compile TypeScript (the swagger CLI plugin runs here).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/react-native-card/package.json packages/react-native-card/package.json
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src src
COPY migrations migrations
COPY scripts scripts
RUN npx nest build

# Runtime stage: production dependencies only, non-root, no build tools. The embedded
# PostgreSQL (an optional dependency, for the two-command local default) is left out: the
# image runs against DATABASE_URL. scripts/prune-runtime.js drops what is never loaded.
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/react-native-card/package.json packages/react-native-card/package.json
COPY scripts/prune-runtime.js /tmp/prune-runtime.js
RUN npm ci --omit=dev --omit=optional --no-audit --no-fund --ignore-scripts && node /tmp/prune-runtime.js node_modules && rm /tmp/prune-runtime.js && npm cache clean --force
COPY --from=build /app/dist dist
USER node
EXPOSE 3000
# Kubernetes sends SIGTERM; node is PID 1 here and handles it (readiness 503, drain, close).
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:3000/health/live').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "dist/src/main.js"]
