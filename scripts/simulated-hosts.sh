#!/usr/bin/env bash
# Simulated hosts: a cluster of K "machines" on this one, to try `skynnet-cli --hosts` (and test it)
# without other computers. Each host is a network namespace with its own hostname (a UTS
# namespace), joined by a veth pair to a bridge; /etc/hosts names it; Open MPI starts ranks "on"
# it through this script as its remote shell (plm_rsh_agent). Needs root, iproute2 and unshare.
#
#   simulated-hosts.sh check               can hosts be made here? (exit 0, or 1 and why not)
#   simulated-hosts.sh run K -- CMD ARG..  make K hosts, run CMD with their settings in its
#                                          environment, remove the hosts however CMD ends
#   simulated-hosts.sh up K                make K hosts and print their settings as `export` lines
#                                          (eval "$(simulated-hosts.sh up 3)"); they stay until down
#   simulated-hosts.sh down PREFIX|--all   remove hosts made by up
#   simulated-hosts.sh hold K              make K hosts, print their settings (NAME=VALUE lines) and
#                                          "# ready", keep them until standard input closes (tests)
#   simulated-hosts.sh on HOST CMD..       run CMD (words for a shell, as ssh takes them) on HOST
#   simulated-hosts.sh bind HOST SRC DEST  commands started on HOST from now on see SRC at DEST
#   simulated-hosts.sh unbind HOST         ... and no longer
#   simulated-hosts.sh list                the hosts that exist, by prefix
#   simulated-hosts.sh reap                remove what killed runs left behind (up/run/hold do it too)
#
# The settings: SIMHOSTS_PREFIX (e.g. sim3), SIMHOSTS_HOSTS ("sim3-h1 sim3-h2 ..."),
# SIMHOSTS_HOSTFILE (an Open MPI hostfile, one slot per host unless SIMHOSTS_SLOTS says otherwise)
# and the OMPI_MCA_* variables that make mpirun reach the hosts through this script and talk over
# their network only.
#
# Traffic stays inside: the hosts' only route is their /24 on the bridge (no default route), and
# the bridge does not forward to other interfaces. The bridge has the .254 address of that /24 in
# this (the root) namespace only because mpirun runs here and its daemons on the hosts call it back.
# Every invocation takes its own prefix and /24 (10.231.N.0/24, or SIMHOSTS_NET=A.B for A.B.N.0/24),
# so parallel runs do not collide. /etc/hosts is edited under a lock, atomically (a temporary file
# renamed over it), its previous content kept in /etc/hosts.simhosts.bak.
set -euo pipefail
shopt -s inherit_errexit  # $(make_hosts ...) and the like stop at the first failure too

self=$(readlink -f "${BASH_SOURCE[0]}")
state_root=/run/simhosts
lock=$state_root/.lock
net_base=${SIMHOSTS_NET:-10.231}
hosts_file=${SIMHOSTS_ETC_HOSTS:-/etc/hosts}
marker="# simhosts"

die() {
  echo "simulated-hosts: $*" >&2
  exit 1
}

# Why hosts cannot be made here, or nothing.
unavailable() {
  [ "$(id -u)" -eq 0 ] || { echo "needs root (network namespaces, /etc/hosts)"; return; }
  local tool
  for tool in ip unshare mount hostname sysctl flock; do
    command -v "$tool" >/dev/null || { echo "$tool is not installed"; return; }
  done
  local probe="simhosts-probe-$$" out
  if ! out=$(ip netns add "$probe" 2>&1); then
    echo "cannot make a network namespace (ip netns add: $out)"
    return
  fi
  out=$(ip netns exec "$probe" unshare --uts --mount -- true 2>&1) || echo "cannot enter a namespace (${out:-unshare failed})"
  ip netns del "$probe" 2>/dev/null || true
}

# "pid starttime" of a process, to tell it from a later one with the same pid.
identity() { awk '{print $1, $22}' "/proc/$1/stat" 2>/dev/null | tr -d '\n'; }

owner_alive() {
  local owner
  owner=$(cat "$1/owner" 2>/dev/null) || return 1
  [ "$owner" = manual ] && return 0
  [ -n "$owner" ] && [ "$(identity "${owner%% *}")" = "$owner" ]
}

# Rewrites /etc/hosts without the prefix's lines and with the lines on stdin, atomically.
edit_hosts() {
  local prefix=$1 tmp
  tmp=$(mktemp "$(dirname "$hosts_file")/.hosts.simhosts.XXXXXX")
  { grep -v -- " $marker $prefix\$" "$hosts_file" || true; cat; } >"$tmp"
  chmod --reference="$hosts_file" "$tmp"
  chown --reference="$hosts_file" "$tmp"
  cp -p "$hosts_file" "$hosts_file.simhosts.bak"
  # A bind-mounted /etc/hosts (containers) cannot be renamed over: then it is rewritten in place.
  mv -f "$tmp" "$hosts_file" 2>/dev/null || { cat "$tmp" >"$hosts_file"; rm -f "$tmp"; }
}

# Removes everything of one prefix, from its names alone (idempotent: a run killed half-way
# through `up` leaves some of it).
teardown() {
  local prefix=$1 ns link
  for ns in $(ip netns list | awk '{print $1}' | grep -E "^$prefix-h[0-9]+\$" || true); do
    # Processes left on a host (a rank, a daemon) would keep its namespace alive.
    ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null || true
    ip netns del "$ns" 2>/dev/null || true
  done
  for link in $(ip -o link show | awk -F': ' '{print $2}' | cut -d@ -f1 | grep -E "^$prefix-(h[0-9]+|br)\$" || true); do
    ip link del "$link" 2>/dev/null || true
  done
  if grep -q -- " $marker $prefix\$" "$hosts_file" 2>/dev/null; then
    locked edit_hosts "$prefix" </dev/null
  fi
  rm -rf "${state_root:?}/$prefix"
}

# Every prefix in use: state folders, namespaces, links and /etc/hosts lines.
prefixes() {
  {
    ls "$state_root" 2>/dev/null || true
    ip netns list | awk '{print $1}' | sed -nE 's/^(sim[0-9]+)-h[0-9]+$/\1/p'
    ip -o link show | awk -F': ' '{print $2}' | cut -d@ -f1 | sed -nE 's/^(sim[0-9]+)-(h[0-9]+|br)$/\1/p'
    sed -nE "s/.* $marker (sim[0-9]+)\$/\1/p" "$hosts_file" 2>/dev/null
  } | { grep -E '^sim[0-9]+$' || true; } | sort -u
}

# Removes the prefixes whose owner has ended (or that have no state at all). Under the lock, so
# that a prefix being claimed is never taken for a stale one.
reap() {
  local prefix
  for prefix in $(prefixes); do
    owner_alive "$state_root/$prefix" && continue
    echo "simulated-hosts: removing $prefix, left by a run that ended without removing it" >&2
    teardown "$prefix"
  done
  # The temporary file of an /etc/hosts edit that was killed before its rename.
  rm -f "$(dirname "$hosts_file")"/.hosts.simhosts.??????
}

# Runs a command holding the lock (at once if this process holds it already), in a subshell.
have_lock=0
locked() {
  if [ "$have_lock" = 1 ]; then
    "$@"
    return
  fi
  mkdir -p "$state_root"
  (
    flock 9
    have_lock=1
    "$@"
  ) 9>"$lock"
}

# The /24 A.B.N.0 overlaps a route of this machine.
subnet_taken() {
  local net=$net_base.$1
  [ -n "$(ip -4 route show root "$net.0/24")" ] && return 0
  ip -4 route show match "$net.0/24" | grep -qv '^default'
}

# Takes a free N (prefix simN, subnet A.B.N.0/24) for `owner` (call it under the lock); prints N.
claim() {
  local owner=$1 n in_use
  in_use=$(prefixes)
  for n in $(seq 1 250); do
    grep -qx "sim$n" <<<"$in_use" && continue
    subnet_taken "$n" && continue
    mkdir -p "$state_root/sim$n"
    echo "$owner" >"$state_root/sim$n/owner"
    echo "$n"
    return
  done
  die "no free prefix and subnet among sim1-sim250 ($net_base.N.0/24): see \`$0 list\`"
}

reap_and_claim() {
  reap
  claim "$1"
}

# Makes K hosts for `owner`; prints the prefix.
make_hosts() {
  local k=$1 owner=$2 n prefix dir i host lines="" names=""
  [[ "$k" =~ ^[1-9][0-9]?$ ]] || die "expected a number of hosts from 1 to 99, got '$k'"
  local why
  why=$(unavailable)
  [ -z "$why" ] || die "cannot make hosts here: $why"
  n=$(locked reap_and_claim "$owner")
  prefix=sim$n
  dir=$state_root/$prefix
  mkdir -p "$dir/binds"
  local net=$net_base.$n bridge=$prefix-br
  ip link add "$bridge" type bridge
  # The bridge passes frames between the hosts; this namespace forwards nothing from it.
  sysctl -qw "net.ipv4.conf.$bridge.forwarding=0" "net.ipv6.conf.$bridge.disable_ipv6=1"
  ip addr add "$net.254/24" dev "$bridge"
  ip link set "$bridge" up
  for i in $(seq 1 "$k"); do
    host=$prefix-h$i
    ip netns add "$host"
    ip link add "$host" type veth peer name eth0 netns "$host"
    sysctl -qw "net.ipv6.conf.$host.disable_ipv6=1"
    ip link set "$host" master "$bridge" up
    ip netns exec "$host" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv4.ip_forward=0
    ip -n "$host" addr add "$net.$i/24" dev eth0
    ip -n "$host" link set lo up
    ip -n "$host" link set eth0 up
    lines+="$net.$i $host $marker $prefix"$'\n'
    names+="${names:+ }$host"
    echo "$host slots=${SIMHOSTS_SLOTS:-1}" >>"$dir/hostfile"
  done
  printf '%s' "$lines" | locked edit_hosts "$prefix"
  printf '#!/bin/sh\n# Open MPI remote shell for the simulated hosts %s: runs a command "on" a host.\nexec bash %q on "$@"\n' \
    "$prefix" "$self" >"$dir/agent"
  chmod 755 "$dir/agent"
  {
    echo "SIMHOSTS_PREFIX=$prefix"
    echo "SIMHOSTS_HOSTS=$names"
    echo "SIMHOSTS_HOSTFILE=$dir/hostfile"
    echo "OMPI_MCA_plm_rsh_agent=$dir/agent"
    # The agent runs in the root namespace only: no daemon starts others from inside a host.
    echo "OMPI_MCA_plm_rsh_no_tree_spawn=1"
    echo "OMPI_MCA_oob_tcp_if_include=$net.0/24"
    echo "OMPI_MCA_btl_tcp_if_include=$net.0/24"
  } >"$dir/settings"
  echo "$prefix"
}

print_settings() {
  local name value
  while IFS='=' read -r name value; do
    printf 'export %s=%q\n' "$name" "$value"
  done <"$state_root/$1/settings"
}

# The state folder of a host's prefix (sim3-h2 -> /run/simhosts/sim3).
host_dir() {
  [[ "$1" =~ ^(sim[0-9]+)-h[0-9]+$ ]] || die "not a simulated host: '$1'"
  local dir=$state_root/${BASH_REMATCH[1]}
  ip netns list | awk '{print $1}' | grep -qx -- "$1" || die "no simulated host $1 (see \`$0 list\`)"
  echo "$dir"
}

cmd_on() {
  # Open MPI passes ssh's options first when it thinks the agent is ssh; none of them apply here.
  while [ $# -gt 0 ] && [[ "$1" == -* ]]; do shift; done
  [ $# -ge 2 ] || die "usage: $0 on HOST COMMAND..."
  local host=$1 dir
  shift
  dir=$(host_dir "$host")
  # As ssh does, the words are joined into one command line for the host's shell.
  exec ip netns exec "$host" unshare --uts --mount -- bash "$self" _inside "$host" "$dir/binds/$host" "$*"
}

# On the host, in its own UTS and mount namespaces: its name, its bind mounts, then the command.
cmd_inside() {
  local host=$1 binds=$2 command=$3 src dest
  hostname "$host"
  if [ -f "$binds" ]; then
    while IFS=$'\t' read -r src dest; do
      mount --bind "$src" "$dest" || die "on $host: cannot bind $src at $dest"
    done <"$binds"
  fi
  exec sh -c "$command"
}

cmd_bind() {
  [ $# -eq 3 ] || die "usage: $0 bind HOST SRC DEST"
  local dir src dest
  dir=$(host_dir "$1")
  src=$(readlink -f "$2") dest=$(readlink -f "$3")
  [ -e "$src" ] || die "bind: $2 does not exist"
  [ -e "$3" ] || die "bind: $3 does not exist (a bind mount needs something at the path it covers)"
  [[ "$src$dest" != *$'\t'* && "$src$dest" != *$'\n'* ]] || die "bind: paths with tabs or newlines are not supported"
  printf '%s\t%s\n' "$src" "$dest" >>"$dir/binds/$1"
}

cmd_unbind() {
  [ $# -eq 1 ] || die "usage: $0 unbind HOST"
  local dir
  dir=$(host_dir "$1")
  rm -f "$dir/binds/$1"
}

# Hosts that live as long as this shell: removed when it exits, by whatever means but SIGKILL
# (then the next up, run, hold or reap removes them). Sets `prefix`.
child=""
remove_own_hosts() {
  if [ -n "$child" ] && kill -TERM "$child" 2>/dev/null; then
    local i
    for i in $(seq 50); do kill -0 "$child" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$child" 2>/dev/null || true
  fi
  local me p
  me=$(identity $$)
  for p in $(prefixes); do
    [ "$(cat "$state_root/$p/owner" 2>/dev/null)" = "$me" ] && teardown "$p"
  done
  return 0
}
owned_hosts() {
  trap remove_own_hosts EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  trap 'exit 129' HUP
  prefix=$(make_hosts "$1" "$(identity $$)")
}

cmd_run() {
  if [ $# -lt 3 ] || [ "$2" != "--" ]; then die "usage: $0 run K -- COMMAND [ARGUMENT...]"; fi
  local k=$1 prefix="" status name value
  shift 2
  owned_hosts "$k"
  while IFS='=' read -r name value; do export "$name=$value"; done <"$state_root/$prefix/settings"
  # In the background, so that a signal to this script is passed on at once; its stdin is ours.
  "$@" <&0 &
  child=$!
  status=0
  wait "$child" || status=$?
  # A signal ends the wait early: the command is ended too (by remove_own_hosts) before the hosts go.
  exit "$status"
}

cmd_hold() {
  [ $# -eq 1 ] || die "usage: $0 hold K"
  local prefix=""
  owned_hosts "$1"
  cat "$state_root/$prefix/settings"
  echo "# ready: the hosts are removed when standard input closes"
  cat <&0 >/dev/null &
  child=$!
  wait "$child" || true
  child=""
}

cmd_list() {
  local prefix
  for prefix in $(prefixes); do
    local owner
    owner=$(cat "$state_root/$prefix/owner" 2>/dev/null || echo "none")
    echo "$prefix: $(ip netns list | awk '{print $1}' | grep -E "^$prefix-h[0-9]+\$" | sort -V | tr '\n' ' ')(owner: $owner)"
  done
}

main() {
  local command=${1:-}
  shift || true
  case "$command" in
    check)
      local why
      why=$(unavailable)
      [ -z "$why" ] || { echo "$why"; exit 1; }
      ;;
    run) cmd_run "$@" ;;
    hold) cmd_hold "$@" ;;
    up)
      [ $# -eq 1 ] || die "usage: $0 up K"
      local prefix
      prefix=$(make_hosts "$1" manual)
      print_settings "$prefix"
      ;;
    down)
      [ $# -eq 1 ] || die "usage: $0 down PREFIX|--all"
      if [ "$1" = --all ]; then
        local p
        for p in $(prefixes); do teardown "$p"; done
      else
        [[ "$1" =~ ^sim[0-9]+$ ]] || die "expected a prefix such as sim1 (see \`$0 list\`), got '$1'"
        teardown "$1"
      fi
      ;;
    on) cmd_on "$@" ;;
    _inside) cmd_inside "$@" ;;
    bind) cmd_bind "$@" ;;
    unbind) cmd_unbind "$@" ;;
    list) cmd_list ;;
    reap) locked reap ;;
    *) sed -n '2,/^set -euo/p' "$self" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
  esac
}

main "$@"
