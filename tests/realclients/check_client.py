"""One real client under one model (tests/realclients): runs the program plainly and under the
LD_PRELOAD shim, and checks what docs/testing.md "Real clients" promises:

  - both runs finish with status 0 (CTest's TIMEOUT bounds the time; nothing here is timed);
  - under `ode` the program's output is byte-identical to the plain run's (object addresses
    that Python prints aside);
  - under a model, the shim's summary is there, and its trace (IMPAX_TRACE) shows no impact
    that gains kinetic energy and no event left to ODE, but jia's one-contact refusals;
  - a line for the client table: program, model, events, fallbacks, CPU time against plain.

usage: check_client.py SHIM MODEL SCRATCH NAME PROGRAM [ARG...]
Environment for both runs (DS_FRAMES, ...) comes from the caller. A PROGRAM of `xvfb-run`
wraps the rest: the shim's variables are then set on the wrapper, as a user would set them."""
import json
import os
import re
import resource
import subprocess
import sys

# an impact may not end with more kinetic energy than it began with (J): relative, absolute
ENERGY_REL, ENERGY_ABS_J = 1e-9, 1e-9
# the one refusal a model makes by design: jia resolves one contact per event (docs/models/jia.md)
DESIGNED_REFUSAL = "jia handles one contact"
ADDRESS = re.compile(rb"0x[0-9a-f]{6,}")


def cpu_children():
    """CPU seconds (user + system) of the children reaped so far, and of theirs."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(argv, env):
    """(exit status, stdout bytes, stderr text, CPU seconds of the process tree)."""
    before = cpu_children()
    proc = subprocess.run(argv, env=env, capture_output=True, check=False)
    return proc.returncode, proc.stdout, proc.stderr.decode(errors="replace"), cpu_children() - before


def read_trace(path):
    events = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            try:
                events.append(json.loads(line))
            except ValueError:
                sys.exit(f"FAIL {path}:{number}: not a JSON line: {line[:120]!r}")
    return events


def main():
    shim, model, scratch, name = sys.argv[1:5]
    argv = sys.argv[5:]
    os.makedirs(scratch, exist_ok=True)
    plain_env = {k: v for k, v in os.environ.items() if not k.startswith("IMPAX_")}
    plain_env.pop("LD_PRELOAD", None)
    status, plain_out, plain_err, plain_cpu = timed(argv, plain_env)
    if status != 0:
        sys.exit(f"FAIL {name}: the plain program exits with {status}:\n{plain_err[-2000:]}")

    row_path = os.path.join(scratch, f"{name}_{model}.row")
    with open(row_path, "w", encoding="utf-8") as f:  # what stays if CTest's TIMEOUT kills it
        f.write(f"{name}\t{model}\tno\t0\t0\tinf\n")
    trace = os.path.join(scratch, f"{name}_{model}.jsonl")
    if os.path.exists(trace):
        os.remove(trace)
    env = dict(plain_env, LD_PRELOAD=shim, IMPAX_MODEL=model, IMPAX_VERBOSE="1")
    if model != "ode":
        env["IMPAX_TRACE"] = trace
    status, out, err, cpu = timed(argv, env)
    failures = []
    if status != 0:
        failures.append(f"exits with {status} under {model}:\n{err[-3000:]}")
    summaries = [l for l in err.splitlines() if l.startswith(f"impax: model {model}:")]
    if len(summaries) != 1:
        failures.append(f"{len(summaries)} summaries from the shim, not 1:\n{err[-2000:]}")

    events = fallbacks = gains = 0
    if model == "ode":
        # Python prints objects with their addresses, which any change of the heap moves
        if ADDRESS.sub(b"0x?", out) != ADDRESS.sub(b"0x?", plain_out):
            failures.append("output under `ode` differs from the plain run's")
    elif os.path.exists(trace):
        for ev in read_trace(trace):
            if ev["status"] == "ok":
                events += 1
                # what the contacts dissipated, by the trace's own balance (docs/ode-adapter.md
                # "Trace lines"): the compliant model's springs and the step's other forces count
                before, after = ev["ke_before"], ev["ke_after"]
                stored, other = ev["delta_stored"], ev["work_other"]
                scale = before + abs(stored) + abs(other)
                if after - before + stored - other > ENERGY_REL * scale + ENERGY_ABS_J:
                    gains += 1
                    if gains <= 3:
                        failures.append(
                            f"step {ev['step']}: {ev['contacts']} contacts, kinetic energy "
                            f"{before:.6g} J -> {after:.6g} J, stored {stored:+.6g} J, "
                            f"other forces' work {other:+.6g} J")
            elif DESIGNED_REFUSAL not in ev["status"]:
                fallbacks += 1
                if fallbacks <= 3:
                    failures.append(f"step {ev['step']}: left to ODE: {ev['status']}")
    else:
        failures.append(f"no trace at {trace}")
    if gains:
        failures.append(f"{gains} impacts gained kinetic energy")
    if fallbacks:
        failures.append(f"{fallbacks} events left to ODE")

    ratio = cpu / plain_cpu if plain_cpu > 0 else float("inf")
    row = f"{name}\t{model}\t{'yes' if status == 0 else 'no'}\t{events}\t{fallbacks}\t{ratio:.3g}"
    with open(row_path, "w", encoding="utf-8") as f:
        f.write(row + "\n")
    print(f"{name} {model}: exit {status}, {events} impacts, {fallbacks} left to ODE, "
          f"{gains} gaining energy; CPU {cpu:.3g} s against {plain_cpu:.3g} s plain ({ratio:.3g}x)")
    for failure in failures:
        print("FAIL", failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
