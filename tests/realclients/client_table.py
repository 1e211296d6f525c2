"""The client table of docs/real-clients.md from a run of the real-client suite:
`client_table.py SCRATCH` reads the rows check_client.py left in SCRATCH
(build/tests/realclients/scratch) and prints, for each program and model, whether it ran, its
impact events, those with limits_hit set (a limit of the model reached, or a fallback of its
own), its events left to ODE and its CPU time against the plain run."""
import glob
import os
import sys

MODELS = ["ode", "plus", "routh", "aplcp", "bowling", "jia", "gonthier"]


def main():
    scratch = sys.argv[1]
    cells = {}
    for path in glob.glob(os.path.join(scratch, "*.row")):
        with open(path, encoding="utf-8") as f:
            name, model, ran, events, flagged, fallbacks, ratio = f.read().split("\t")
        cells[(name, model)] = (ran, int(events), int(flagged), int(fallbacks), float(ratio))
    programs = sorted({name for name, _ in cells})
    print("| program | " + " | ".join(MODELS) + " |")
    print("|---|" + "---|" * len(MODELS))
    for name in programs:
        row = []
        for model in MODELS:
            cell = cells.get((name, model))
            if cell is None:
                row.append("—")
            elif cell[0] != "yes":
                row.append("**did not finish**")
            elif model == "ode":
                row.append(f"{cell[4]:.2g}×")
            else:
                flagged = f" ({cell[2]} limits_hit)" if cell[2] else ""
                fallbacks = f", **{cell[3]} to ODE**" if cell[3] else ""
                row.append(f"{cell[1]} ev{flagged}{fallbacks}, {cell[4]:.2g}×")
        print(f"| {name} | " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
