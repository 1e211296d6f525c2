/// Impact events as JSON Lines: one object per event, one per line, with the keys INTERFACES.md
/// documents (step, time, world, model, contacts, status, ke_before, ke_after, vn_before,
/// vn_after, impulse and the model's counters). Written by the LD_PRELOAD shim (IMPAX_TRACE) and
/// by `impax run --trace`.
#ifndef IMPAX_TRACE_H
#define IMPAX_TRACE_H

#include <stdio.h>

#include "impax/ode.h"

/// Writes ev as one JSON object on one line of f: world_index and time_s (s, the time at the
/// start of the event's step) as the caller counts them. The caller serialises calls on f.
void ipx_trace_event(FILE *f, int world_index, double time_s, const ipx_ode_event *ev);

#endif
