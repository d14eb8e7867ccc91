# Sourced by the scripts that run on a lent many-core machine (devbox-journal.sh,
# devbox-crowd.sh), copied beside them: with $1 the folder ../shared/bench/devbox/pack.sh made
# and $2 the output folder, it unpacks the bundle, sets L (its libraries), B (its programs) and
# ldso (the bundled dynamic loader, through which everything runs on that machine's other
# Linux), writes what the machine is to $out/env.txt, puts libwebsockets' libev plugin where
# lws looks for it, and raises the open-file limit.
box=$(cd "$1" && pwd); out=$2; small=${3:-}
mkdir -p "$out"; L=$box/lib; B=$box/bin
[ -d "$L" ] || tar -xJf "$box/bundle.tar.xz" -C "$box"
ldso=$L/ld-linux-x86-64.so.2
{ echo "cores=$(nproc) mem=$(free -g | awk '/Mem/{print $2}')G kernel=$(uname -r)"; head -2 /etc/os-release
  grep -m1 "model name" /proc/cpuinfo; df -h "$out" | tail -1; } >"$out/env.txt" 2>&1
[ -f /usr/lib/x86_64-linux-gnu/libwebsockets-evlib_ev.so ] || {
  mkdir -p /usr/lib/x86_64-linux-gnu && cp "$L/libwebsockets-evlib_ev.so" /usr/lib/x86_64-linux-gnu/; }
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
echo "ulimit -n $(ulimit -n), hard $(ulimit -Hn) (lws' table: the server's soft limit, --max-connections + 1,024 within it)" >>"$out/env.txt"
