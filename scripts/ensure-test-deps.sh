#!/usr/bin/env bash
# Installs the system packages the tests need, only when missing (Debian, apt):
#   chromium    -> /usr/bin/chromium for Playwright (it cannot download its own browser here)
#   postgresql  -> initdb/pg_ctl; the tests start their own throwaway server (tests/fixtures/postgres-server.ts)
#   haproxy     -> the load balancer of the cluster tests, started by them (tests/fixtures/balancer.ts)
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

have_initdb() {
  command -v initdb >/dev/null 2>&1 || compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null
}

have_haproxy() {
  command -v haproxy >/dev/null 2>&1 || [[ -x /usr/sbin/haproxy ]]
}

need_chromium=0
need_postgres=0
need_haproxy=0
[[ -x /usr/bin/chromium ]] || need_chromium=1
have_initdb || need_postgres=1
have_haproxy || need_haproxy=1
((need_chromium || need_postgres || need_haproxy)) || exit 0

as_root=()
if [[ $(id -u) -ne 0 ]]; then
  if ! command -v sudo >/dev/null 2>&1; then
    missing="$( ((need_chromium)) && echo chromium) $( ((need_postgres)) && echo postgresql) $( ((need_haproxy)) && echo haproxy)"
    echo "ensure-test-deps: root or sudo needed to install: ${missing}" >&2
    exit 1
  fi
  as_root=(sudo --preserve-env=DEBIAN_FRONTEND)
fi

# apt's and the maintainer scripts' chatter goes to a log, shown only when a step fails.
log=$(mktemp)
policy=/usr/sbin/policy-rc.d
added_policy=0
cleanup() {
  rm -f "$log"
  if ((added_policy)); then "${as_root[@]}" rm -f "$policy"; fi
}
trap cleanup EXIT
quietly() {
  local code=0
  "$@" >>"$log" 2>&1 || code=$?
  if ((code != 0)); then
    tail -n 60 "$log" >&2
    echo "ensure-test-deps: failed (exit ${code}): $*" >&2
    exit "$code"
  fi
}
apt_install=(apt-get install -y --no-install-recommends -o Acquire::Retries=3)

echo "ensure-test-deps: apt-get update"
quietly "${as_root[@]}" apt-get update -o Acquire::Retries=3

if ((need_chromium)); then
  echo "ensure-test-deps: apt-get install chromium (/usr/bin/chromium missing)"
  quietly "${as_root[@]}" "${apt_install[@]}" chromium
fi

# The postgresql and haproxy packages' scripts would start their default services (a cluster on port
# 5432, a proxy on the packaged config) that the tests never use: they start their own. A policy-rc.d
# answering 101 ("action forbidden") stops invoke-rc.d/deb-systemd-invoke doing so.
forbid_service_starts() {
  if [[ ! -e $policy ]]; then
    printf '#!/bin/sh\nexit 101\n' | "${as_root[@]}" tee "$policy" >/dev/null
    "${as_root[@]}" chmod 755 "$policy"
    added_policy=1
  fi
}

if ((need_postgres)); then
  echo "ensure-test-deps: apt-get install postgresql (no initdb found; its default cluster is left stopped)"
  forbid_service_starts
  quietly "${as_root[@]}" "${apt_install[@]}" postgresql
fi

if ((need_haproxy)); then
  echo "ensure-test-deps: apt-get install haproxy (none found; its default service is left stopped)"
  forbid_service_starts
  quietly "${as_root[@]}" "${apt_install[@]}" haproxy
fi

if ! have_initdb; then
  echo "ensure-test-deps: initdb still not found after installing postgresql" >&2
  exit 1
fi
if ! have_haproxy; then
  echo "ensure-test-deps: haproxy still not found after installing haproxy" >&2
  exit 1
fi
if [[ ! -x /usr/bin/chromium ]]; then
  echo "ensure-test-deps: /usr/bin/chromium still missing after installing chromium" >&2
  exit 1
fi
