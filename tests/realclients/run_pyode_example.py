"""Runs one of PyODE's examples (from its source package) headless for a fixed number of world
steps, as the real-client suite needs it: `python3 run_pyode_example.py EXAMPLE.py STEPS`.

The example itself is unchanged. The runner only makes it finish and repeat: every world steps
through a counting subclass of ode.World that exits the program after STEPS steps, `random` is
seeded, and the examples' real-time pacing (time.sleep, pygame's clock) is skipped. Drawing still
happens (under xvfb-run), as it does for a user."""
import ctypes
import os
import random
import runpy
import sys
import time

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import ode

example, steps_limit = sys.argv[1], int(sys.argv[2])
steps_done = 0


def count_step():
    global steps_done
    steps_done += 1
    if steps_done >= steps_limit:
        sys.stdout.flush()
        sys.stderr.flush()
        # glutMainLoop never returns and swallows SystemExit: C's exit runs the shim's summary
        ctypes.CDLL(None).exit(0)


class CountingWorld(ode.World):
    def step(self, dt):
        super().step(dt)
        count_step()

    def quickStep(self, dt):
        super().quickStep(dt)
        count_step()


ode.World = CountingWorld
random.seed(1)
time.sleep = lambda seconds: None
try:
    import pygame.time

    class FreeClock:
        def tick(self, *args):
            return 0

        def get_fps(self):
            return 0.0

    pygame.time.Clock = FreeClock
except ImportError:
    pass

# as `python3 EXAMPLE.py` would have it: its directory current and first on sys.path (the
# heightmap example opens its image at sys.path[0])
os.chdir(os.path.dirname(os.path.abspath(example)))
sys.path[0] = os.path.dirname(os.path.abspath(example))
sys.argv = [example]
runpy.run_path(example, run_name="__main__")
