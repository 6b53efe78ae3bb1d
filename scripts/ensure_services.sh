#!/usr/bin/env bash
# make test needs PostgreSQL (127.0.0.1:5432, user postgres, trust auth) and Redis (127.0.0.1:6379).
# Start either when it is down, as this machine's own service commands do; else say what to start.
set -u
pg_up() { pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null || (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null; }
redis_up() { { exec 3<>/dev/tcp/127.0.0.1/6379 && printf 'PING\r\n' >&3 && read -r -t 2 reply <&3 && [[ $reply == +PONG* ]]; } 2>/dev/null; }

if ! pg_up; then
  echo "PostgreSQL is not answering on 127.0.0.1:5432; starting it"
  if command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ]; then
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start || true
  fi
  for _ in $(seq 1 30); do pg_up && break; sleep 1; done
  pg_up || { echo "Start PostgreSQL on 127.0.0.1:5432 (trust auth for user postgres):"; echo "  pg_ctlcluster --skip-systemctl-redirect \$(ls /etc/postgresql) main start"; exit 1; }
fi
if ! redis_up; then
  echo "Redis is not answering on 127.0.0.1:6379; starting it"
  if command -v redis-server >/dev/null; then
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no || true
  fi
  for _ in $(seq 1 20); do redis_up && break; sleep 0.5; done
  redis_up || { echo "Start Redis on 127.0.0.1:6379:"; echo "  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save \"\" --appendonly no"; exit 1; }
fi
echo "PostgreSQL and Redis are up."
