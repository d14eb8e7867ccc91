#!/usr/bin/env python3
"""Runs a command and says where the machine's CPU went while it ran, by program: every process
on the machine is sampled each INTERVAL seconds (default 0.5) and each one's CPU (its own, from
/proc) counted once, as last seen; programs are told apart by their executable's name
(Chromium's renderers and GPU process are "chromium"; kernel threads by their own). A process that lives less than one interval is missed; the idle
CPU is the rest of the cores' time. Used to find where `make test` spends its time.

Usage: scripts/cpu-by-program.py [--interval S] [--out FILE] -- COMMAND [ARG...]"""
import argparse
import os
import subprocess
import sys
import time

TICKS = os.sysconf("SC_CLK_TCK")


def sample(seen, names):
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                head, rest = f.read().rsplit(")", 1)
            fields = rest.split()
            started = int(fields[19])
            key = (int(entry), started)
            seen[key] = (int(fields[11]) + int(fields[12])) / TICKS
            if key not in names:
                try:
                    name = os.path.basename(os.readlink(f"/proc/{entry}/exe"))
                except OSError:
                    name = head.split("(", 1)[1]  # a kernel thread, or gone
                name = name.removesuffix(" (deleted)") or "?"
                # Chromium's processes by their role (renderer, gpu-process, utility): the
                # browser process itself has no --type.
                try:
                    # (a renderer rewrites its command line as one string, spaces between)
                    with open(f"/proc/{entry}/cmdline", "rb") as f:
                        argv = f.read().replace(b"\0", b" ").split()
                    role = next((a[7:].decode() for a in argv if a.startswith(b"--type=")), None)
                    if role:
                        name += f" ({role})"
                except OSError:
                    pass
                names[key] = name
        except (OSError, IndexError, ValueError):
            continue


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--interval", type=float, default=0.5)
    parser.add_argument("--out")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    seen, names = {}, {}
    sample(seen, names)
    before = dict(seen)
    began = time.monotonic()
    child = subprocess.Popen(command)
    while child.poll() is None:
        time.sleep(args.interval)
        sample(seen, names)
    wall = time.monotonic() - began
    totals = {}
    for key, cpu in seen.items():
        spent = cpu - before.get(key, 0.0)
        if spent > 0:
            totals[names[key]] = totals.get(names[key], 0.0) + spent
    cores = os.cpu_count()
    used = sum(totals.values())
    lines = [f"{wall:.0f} s of wall on {cores} cores ({wall * cores:.0f} core-s): "
             f"{used:.0f} s of CPU counted, {max(0.0, wall * cores - used):.0f} s idle or missed"]
    for name, cpu in sorted(totals.items(), key=lambda kv: -kv[1])[:25]:
        lines.append(f"{cpu:8.1f}  {name}")
    text = "\n".join(lines)
    print(text, file=sys.stderr)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    sys.exit(child.returncode)


if __name__ == "__main__":
    main()
