#!/bin/sh
# The part of the official postgres image's entrypoint that compose.yaml
# relies on: a first start creates the cluster with POSTGRES_USER as its
# superuser (password POSTGRES_PASSWORD) and the database POSTGRES_DB, and
# accepts password logins from the network; every start runs the server as
# the postgres user.
set -eu
mkdir -p "$PGDATA" /var/run/postgresql
chown postgres:postgres "$PGDATA" /var/run/postgresql
chmod 700 "$PGDATA"
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
  chown postgres "$pwfile"
  as_postgres initdb -D "$PGDATA" -U "$POSTGRES_USER" --pwfile="$pwfile" \
    --auth-local=trust --auth-host=scram-sha-256
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  as_postgres pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start
  as_postgres psql -v ON_ERROR_STOP=1 -U "$POSTGRES_USER" -d postgres \
    -c "CREATE DATABASE \"$POSTGRES_DB\""
  as_postgres pg_ctl -D "$PGDATA" -m fast -w stop
fi
exec setpriv --reuid=postgres --regid=postgres --init-groups \
  postgres -D "$PGDATA" -c listen_addresses='*'
