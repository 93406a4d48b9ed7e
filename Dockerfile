# syntax=docker/dockerfile:1
# Build: a static binary with the migrations, templates and static files embedded.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o /out/shipdesk ./cmd/shipdesk

# Run: no shell, no package manager, an unprivileged user.
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/shipdesk /usr/local/bin/shipdesk
ENV SHIPDESK_ADDR=0.0.0.0:8080 \
    SHIPDESK_VAR_DIR=/tmp/shipdesk \
    SHIPDESK_LOG_FORMAT=json
USER nonroot:nonroot
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/shipdesk"]
CMD ["serve"]
