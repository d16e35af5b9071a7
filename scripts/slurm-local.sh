#!/bin/sh
# Sets up a one-node Slurm cluster on this machine (Debian packages
# slurm-wlm and munge), so that the scale-out test can submit the array job
# docs/scale-out.md shows and check the merged result against a local run.
# Idempotent: installs only what is missing, starts only what is not
# running. Needs root (or sudo). The node declares 8 CPUs and 16 GB whatever
# the hardware (SlurmdParameters=config_overrides) so that the documented
# job's 4 CPUs per task fit on a small machine; tasks then share cores.
set -eu

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO="sudo"
	else
		echo "slurm-local: need root (or sudo)" >&2
		exit 1
	fi
fi

if ! command -v slurmctld >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
	export DEBIAN_FRONTEND=noninteractive
	$SUDO apt-get update
	$SUDO apt-get install -y --no-install-recommends slurm-wlm munge
fi

# munge: a key and the daemon.
$SUDO mkdir -p /etc/munge /var/log/munge /run/munge /var/lib/munge
if [ ! -s /etc/munge/munge.key ]; then
	$SUDO sh -c 'mungekey -c -k /etc/munge/munge.key 2>/dev/null || dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 2>/dev/null'
fi
$SUDO chown -R munge:munge /etc/munge /var/log/munge /run/munge /var/lib/munge
$SUDO chmod 400 /etc/munge/munge.key
if ! munge -n >/dev/null 2>&1; then
	$SUDO runuser -u munge -- munged
fi

host=$(hostname)
$SUDO mkdir -p /etc/slurm /var/spool/netsched-slurmctld /var/spool/netsched-slurmd /var/log/slurm
$SUDO tee /etc/slurm/slurm.conf >/dev/null <<CONF
ClusterName=netsched-local
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SlurmdParameters=config_overrides
StateSaveLocation=/var/spool/netsched-slurmctld
SlurmdSpoolDir=/var/spool/netsched-slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ReturnToService=2
MpiDefault=none
NodeName=$host CPUs=8 RealMemory=16000 State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF

start() {
	pgrep -x "$1" >/dev/null && return 0
	$SUDO "$1" || {
		echo "slurm-local: $1 did not start:" >&2
		tail -5 "/var/log/slurm/$1.log" >&2 || true
		exit 1
	}
}
start slurmctld
start slurmd
for i in $(seq 1 30); do
	if sinfo -h -o %T 2>/dev/null | grep -q -E '^(idle|mixed|allocated)'; then
		echo "slurm-local: one-node cluster up on $host"
		exit 0
	fi
	sleep 1
done
echo "slurm-local: the node did not come up; see /var/log/slurm/" >&2
exit 1
