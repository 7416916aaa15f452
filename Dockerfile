# kibitz: build in a full Rust image, run from a slim Debian with the default
# Pig tables solved at build time and baked into the image.
FROM rust:1.95-slim-bookworm AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY src ./src
COPY migrations ./migrations
COPY benches ./benches
COPY openapi.yaml ./
COPY web ./web
RUN cargo build --release --locked --bin kibitz \
    && mkdir -p /out/data \
    && ./target/release/kibitz solve pig --goal 100 --die-sides 6 --variant standard \
        --out /out/data/pig-standard-goal100-d6.kpig \
    && ./target/release/kibitz solve pig --goal 100 --die-sides 6 --variant progressive \
        --out /out/data/pig-progressive-goal100-d6.kpig

FROM debian:bookworm-slim
# curl is for the HEALTHCHECK only. stockfish is the chess engine (Debian's
# package, at /usr/games/stockfish, where kibitz finds it); without it the
# server still runs and answers chess requests with 503. fairy-stockfish
# (/usr/games/fairy-stockfish) is xiangqi's and shogi's, gnubg
# (/usr/games/gnubg, run without its GUI) backgammon's, likewise optional.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates curl stockfish fairy-stockfish gnubg \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin kibitz
WORKDIR /app
COPY --from=build /src/target/release/kibitz /usr/local/bin/kibitz
COPY --from=build --chown=kibitz:kibitz /out/data /app/data
USER 10001:10001
ENV KIBITZ_BIND=0.0.0.0:8080 \
    KIBITZ_DATA_DIR=/app/data \
    KIBITZ_LOG=info
EXPOSE 8080
VOLUME ["/app/data"]
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD ["curl", "-fsS", "http://127.0.0.1:8080/readyz"]
ENTRYPOINT ["kibitz"]
CMD ["serve"]
