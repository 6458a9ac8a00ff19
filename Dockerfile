# Build a static dsol binary, then run it from a small image as a non-root user.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/dsol ./cmd/dsol && mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/dsol /dsol
# the SQLite default (dsol.db) lives in /data, writable by the nonroot user;
# mount a volume there to keep it, or set DATABASE_URL to a PostgreSQL URL
COPY --from=build --chown=65532:65532 /out/data /data
WORKDIR /data
ENV DSOL_ADDR=:8080
EXPOSE 8080
USER nonroot
ENTRYPOINT ["/dsol"]
CMD ["serve"]
