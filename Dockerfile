# Build a static dsol binary, then run it from a small image as a non-root user.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# dsol version and dsol_build_info report these (.git is not copied in):
#   docker build --build-arg VERSION=v1.2.3 --build-arg COMMIT=$(git rev-parse HEAD) .
ARG VERSION=dev
ARG COMMIT=
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w -X main.version=${VERSION} -X main.commit=${COMMIT}" -o /out/dsol ./cmd/dsol && mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/dsol /dsol
# the SQLite default (dsol.db) lives in /data, writable by the nonroot user;
# mount a volume there to keep it, or set DATABASE_URL to a PostgreSQL URL
COPY --from=build --chown=65532:65532 /out/data /data
WORKDIR /data
ENV DSOL_ADDR=:8080
EXPOSE 8080
# no shell or curl in this image: dsol itself asks its /healthz (127.0.0.1, DSOL_ADDR's port)
HEALTHCHECK --interval=10s --timeout=5s --start-period=5s CMD ["/dsol", "healthz"]
USER nonroot
ENTRYPOINT ["/dsol"]
CMD ["serve"]
