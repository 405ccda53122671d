# Sourced by the measurement scripts that play timed games.
#
# warn_if_nice_is_void: on Linux with scheduler autogroups, each terminal (session)
# gets an equal share of the processors whatever its jobs' nice values, so a build
# started at `nice -n 19` in another terminal still takes a core from the games and
# makes engines lose on time. Measured on 2026-12-05: a nice-19 test binary in
# another session took 43 % of a core beside two games on two cores, and 6 of 90
# games at 3s+0.03s were lost on time; with autogroups off, 0 of the next 414.
warn_if_nice_is_void() {
    local knob=/proc/sys/kernel/sched_autogroup_enabled
    if [ -r "$knob" ] && [ "$(cat "$knob")" = 1 ]; then
        echo "warning: scheduler autogroups are on: jobs in other terminals take their share of the cores" \
             "whatever their nice value; for timed games run nothing else, or turn them off" \
             "(sysctl kernel.sched_autogroup_enabled=0, as root)" >&2
    fi
}

# The machine's load: the 1-minute load average and, where Linux says it, the share of the last
# minute in which some task waited for a core.
machine_load() {
    local pressure
    pressure=$(awk '/^some/ { sub(/avg60=/, "", $3); print $3 }' /proc/pressure/cpu 2>/dev/null || true)
    echo "load average $(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo ?)${pressure:+, CPU pressure $pressure %}"
}
