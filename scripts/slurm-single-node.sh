#!/usr/bin/env bash
# A Slurm cluster of one machine (this one): munge, slurmctld and slurmd on this host, so that
# skynnet-cli can be tried as an ordinary batch job (README, "Across machines"). Debian 12's
# slurm-wlm and munge, run as root; for trying things out, not for CI or the test suite.
#   scripts/slurm-single-node.sh start    install if missing, configure, start, wait until idle
#   scripts/slurm-single-node.sh stop     stop the three daemons
#   scripts/slurm-single-node.sh status   sinfo
# Without systemd (a container) the daemons are started directly; their logs are in
# /var/log/slurm/.
set -euo pipefail

node=$(hostname)
conf=/etc/slurm/slurm.conf
# Each daemon's pid file: whether it runs, and what stop ends.
declare -A pidfile=([munged]=/run/munge/munged.pid [slurmctld]=/run/slurmctld.pid [slurmd]=/run/slurmd.pid)

running() {
  local f=${pidfile[$1]}
  [ -s "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null
}

install_packages() {
  local missing=()
  for p in slurm-wlm munge; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return
  echo "Installing: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

start_munge() {
  if [ ! -s /etc/munge/munge.key ]; then
    mungekey --create --keyfile /etc/munge/munge.key
  fi
  chown munge:munge /etc/munge/munge.key
  chmod 0400 /etc/munge/munge.key
  install -d -o munge -g munge -m 0755 /run/munge
  install -d -o munge -g munge -m 0700 /var/lib/munge /var/log/munge
  running munged || runuser -u munge -- /usr/sbin/munged
  munge -n | unmunge >/dev/null  # fails loudly if munge does not work
}

# One node with this machine's cores and memory, one partition. No cgroups (they need systemd or
# a writable cgroup tree): processes are tracked through /proc, tasks are not confined.
write_config() {
  local cpus memory
  cpus=$(nproc)
  memory=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 512 ))
  install -d -m 0755 /etc/slurm
  cat >"$conf" <<EOF
# Written by scripts/slurm-single-node.sh: a cluster of one node, $node.
ClusterName=single
SlurmctldHost=$node
SlurmUser=slurm
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
StateSaveLocation=/var/lib/slurm/slurmctld
SlurmdSpoolDir=/var/lib/slurm/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
NodeName=$node CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=main Nodes=$node Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
EOF
  install -d -o slurm -g slurm -m 0755 /var/lib/slurm /var/lib/slurm/slurmctld /var/log/slurm
  install -d -m 0755 /var/lib/slurm/slurmd
}

start() {
  [ "$(id -u)" -eq 0 ] || { echo "run as root" >&2; exit 1; }
  # Open MPI and Slurm look this host up: it must resolve.
  getent hosts "$node" >/dev/null || echo "127.0.0.1 $node" >>/etc/hosts
  install_packages
  start_munge
  write_config
  running slurmctld || slurmctld
  running slurmd || slurmd
  for _ in $(seq 60); do
    state=$(sinfo -h -n "$node" -o %t 2>/dev/null || true)
    case "$state" in
      idle*|mix*|alloc*) sinfo; return 0 ;;
      down*|drain*) scontrol update nodename="$node" state=resume 2>/dev/null || true ;;
    esac
    sleep 1
  done
  echo "slurm did not come up; see /var/log/slurm/" >&2
  sinfo >&2 || true
  exit 1
}

stop() {
  for daemon in slurmd slurmctld munged; do
    running "$daemon" && kill "$(cat "${pidfile[$daemon]}")"
  done
  return 0
}

case "${1:-start}" in
  start) start ;;
  stop) stop ;;
  status) sinfo ;;
  *) echo "usage: $0 [start|stop|status]" >&2; exit 2 ;;
esac
