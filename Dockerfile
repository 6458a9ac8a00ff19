# Build a static dsol binary, then run it from a small image as a non-root user.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# dsol version and dsol_build_info report these (.git is not copied in):
#   docker build --build-arg COMMIT=$(git rev-parse HEAD) .
# the release, the same as the image tag below
ARG DSOL_VERSION=0.9.0
ARG COMMIT=
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w -X main.version=${DSOL_VERSION} -X main.commit=${COMMIT}" -o /out/dsol ./cmd/dsol && mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
# the release this image is tagged with (dsol:0.9.0 in deploy/compose.yaml
# and deploy/k8s/dsol.yaml); deploy/deploy_test.go keeps the three equal
ARG DSOL_VERSION=0.9.0
LABEL org.opencontainers.image.title="dsol" \
      org.opencontainers.image.version="${DSOL_VERSION}"
COPY --from=build /out/dsol /dsol
# the SQLite default (dsol.db) lives in /data, writable by the nonroot user;
# mount a volume there to keep it, or set DATABASE_URL to a PostgreSQL URL
COPY --from=build --chown=65532:65532 /out/data /data
WORKDIR /data
ENV DSOL_ADDR=:8080
EXPOSE 8080
# numeric, so that Kubernetes can check runAsNonRoot (65532 is distroless's nonroot)
USER 65532:65532
# no shell or curl in this image: `dsol healthz` GETs /healthz on 127.0.0.1:8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 CMD ["/dsol", "healthz"]
ENTRYPOINT ["/dsol"]
CMD ["serve"]
