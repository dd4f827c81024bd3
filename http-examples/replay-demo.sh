#!/usr/bin/env bash
# Replays the seed demo against a running server, so you can watch it with kubectl in another terminal:
#   kubectl --kubeconfig http-examples/kubeconfig get rayclusters,rayjobs,pods,services,jobs -w
# Usage: http-examples/replay-demo.sh [http://127.0.0.1:8080]
# On the virtual clock the script moves time itself (POST /sim/v1/clock/advance); on the wall clock it waits.
# With kuberay-sim.auth.token set, export TOKEN=<the token> (and for https, CURL_CA_BUNDLE=<ca.crt>).
set -euo pipefail
curl() { if [ -n "${TOKEN:-}" ]; then command curl -H "Authorization: Bearer $TOKEN" "$@"; else command curl "$@"; fi; }
server=${1:-http://127.0.0.1:8080}
dir=$(cd "$(dirname "$0")" && pwd)
rc=$server/apis/ray.io/v1/namespaces/default/rayclusters
rj=$server/apis/ray.io/v1/namespaces/default/rayjobs
mode=$(curl -sf "$server/sim/v1/clock" | sed -n 's/.*"mode":"\([a-z]*\)".*/\1/p')

pass_time() { # seconds
  if [ "$mode" = virtual ]; then curl -sf -X POST "$server/sim/v1/clock/advance?seconds=$1" >/dev/null; else sleep "$1"; fi
}
field() { # url, python expression over the object d
  curl -sf "$1" | python3 -c "import json,sys; d=json.load(sys.stdin); print($2)" 2>/dev/null || true
}
wait_for() { # description, url, expression, expected
  for _ in $(seq 1 60); do
    [ "$(field "$2" "$3")" = "$4" ] && { echo "  $1"; return 0; }
    pass_time 1
  done
  echo "  timed out waiting for: $1" >&2; exit 1
}

echo "1. create RayCluster example-cluster (2 workers)"
curl -sf -X POST -H 'Content-Type: application/yaml' --data-binary @"$dir/example-cluster.yaml" "$rc" >/dev/null
wait_for "example-cluster ready with 2 workers" "$rc/example-cluster" \
  "d.get('status',{}).get('state','')+'/'+str(d.get('status',{}).get('readyWorkerReplicas',0))" "ready/2"

echo "2. scale cpu-workers to 4"
curl -sf -X PATCH -H 'Content-Type: application/json-patch+json' \
  -d '[{"op":"replace","path":"/spec/workerGroupSpecs/0/replicas","value":4}]' "$rc/example-cluster" >/dev/null
wait_for "example-cluster has 4 ready workers" "$rc/example-cluster" "d['status']['readyWorkerReplicas']" "4"

echo "3. create RayJob example-job (own cluster, shutdownAfterJobFinishes)"
curl -sf -X POST -H 'Content-Type: application/yaml' --data-binary @"$dir/example-job.yaml" "$rj" >/dev/null
wait_for "example-job Complete" "$rj/example-job" "d.get('status',{}).get('jobDeploymentStatus','')" "Complete"
cluster=$(field "$rj/example-job" "d['status']['rayClusterName']")
code=$(curl -s -o /dev/null -w '%{http_code}' "$rc/$cluster")
echo "  its cluster $cluster: HTTP $code (404 = deleted)"
curl -sf "$server/sim/v1/clock"; echo
