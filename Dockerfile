# The headless reaper in a container: `docker build -t clever-reaper .` then
# `docker run -p 8080:8080 -e REAPER_ADMIN_TOKEN=... -e CLEVER_TOKEN=... -e CLEVER_SECRET=... clever-reaper`
# (README.md, "Run it in a container"). The server runs straight from its TypeScript sources on
# Node 24 (type stripping); the dashboard is built in the first stage, with the dev dependencies.

# ---- build: the dashboard (vite, a dev dependency) into out/renderer ----------------------------
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# No install scripts: neither Electron's binary nor the node binary package are needed to build.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY vite.config.ts tsconfig.json ./
COPY renderer ./renderer
COPY shared ./shared
RUN npx vite build --logLevel warn

# ---- run: production dependencies, the server's sources and the built dashboard -----------------
FROM node:24-slim
WORKDIR /app
ENV NODE_ENV=production \
    PORT=8080 \
    REAPER_HOME=/data
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY main ./main
COPY shared ./shared
COPY --from=build /app/out/renderer ./out/renderer
# The first screen rendered by the server for a signed-in browser (issue 26), built beside it.
COPY --from=build /app/out/renderer-ssr ./out/renderer-ssr
# The data folder (token, settings, SQLite) belongs to the unprivileged user the image provides.
RUN mkdir -p /data && chown node:node /data && chmod 700 /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# PORT set: listens on 0.0.0.0:$PORT, dashboard and API for --allowed-host names (REAPER_ALLOWED_HOSTS),
# the wake proxy for every other Host.
CMD ["node", "main/server/cli.ts"]
