/// Impact events as JSON Lines: one object per event, one per line, with the keys that
/// docs/ode-adapter.md "Trace lines" documents (step, time, world, model, contacts, status, ke_before, ke_after, vn_before,
/// vn_after, impulse and the model's counters), and point and normal (k [x, y, z] each, m and unit,
/// world frame: ODE's contact points and normals). Written by the LD_PRELOAD shim (IMPAX_TRACE) and
/// by `impax run --trace`.
#ifndef IMPAX_TRACE_H
#define IMPAX_TRACE_H

#include <stdio.h>

#include "impax/ode.h"

/// Writes ev as one JSON object on one line of f: world_index and time_s (s, the time at the
/// start of the event's step) as the caller counts them. The caller serialises calls on f.
void ipx_trace_event(FILE *f, int world_index, double time_s, const ipx_ode_event *ev);

/// A trace file whose writes are checked. Every event is formatted whole and then written with
/// write(2), so a failed write is seen at once; the first failure is said once on stderr
/// ("impax: NAME='PATH': writing failed after N events (why): tracing stopped") and stops the
/// trace, and a line cut by it is removed from a regular file.
typedef struct ipx_trace_file {
    int fd;           /* -1: no trace */
    const char *name; /* what the user set: "IMPAX_TRACE", "--trace" */
    const char *path; /* the caller's string, alive while the trace is */
    long written;     /* events written whole */
    int error;        /* errno of the first failed write or close (0: none): no more events */
    int begun;        /* ipx_trace_begin has run */
} ipx_trace_file;

/// Opens path for the trace without waiting: a FIFO that has no reader yet would block the
/// program (the shim opens it before main), so it is refused (ENXIO), as is anything but a
/// regular file, a FIFO or a character device (/dev/stderr). A regular file is created if
/// missing but not emptied: ipx_trace_begin empties it, so that the processes of a wrapper
/// (xvfb-run, a shell script), which load the shim too but step no world, leave the trace of the
/// program they start alone. Returns 0, or -1 with one line naming name and path in message.
int ipx_trace_open(ipx_trace_file *t, const char *name, const char *path, char *message,
                   size_t size);
/// Before the first event of this process: empties a regular file (once; a FIFO or a device is
/// left as it is). The caller serialises calls on t.
void ipx_trace_begin(ipx_trace_file *t);
/// ev as one line of t (nothing once the trace has stopped). The caller serialises calls on t.
void ipx_trace_write(ipx_trace_file *t, int world_index, double time_s, const ipx_ode_event *ev);
/// Closes the trace (a failed close is a failed write too).
void ipx_trace_close(ipx_trace_file *t);
/// For a summary: "" if the trace is fine (or absent), else "; trace stopped after N events (why)".
void ipx_trace_status(const ipx_trace_file *t, char *buf, size_t size);

#endif
