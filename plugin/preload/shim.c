/* libimpax_preload.so: impax under an unmodified ODE program.
 *
 *     LD_PRELOAD=/path/to/libimpax_preload.so IMPAX_MODEL=plus ./my_ode_program
 *
 * Defines the ODE functions through which a program makes, attaches and drops its contacts
 * and steps its worlds; each reports to the ODE adapter (one context per world, made on first
 * use) and then calls the real function, found with dlsym(RTLD_NEXT, ...). The adapter's hooks
 * that drop contacts run BEFORE the real call: ODE reuses joint addresses right after an
 * empty. ODE calls dJointGroupEmpty from dJointGroupDestroy and dBodyDestroy from
 * dWorldDestroy through its PLT, so those reach the hooks twice, which is harmless. Never
 * define here what ODE calls during a step (dBodyAddForce, getters): docs/ode-host.md §3.3.
 * With IMPAX_MODEL=ode every call goes straight to ODE (the A/B baseline, bit-identical), and so
 * does every call the adapter itself makes (ipx_ode_own_call: the copies penetration recovery
 * makes under a context's lock), which must not take the world list's lock that comes before
 * the contexts' in the lock order (docs/ode-adapter.md "Threads and locks").
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shim_config.h"
#include "shim_worlds.h"

static shim_config config;

static struct {
    dJointID (*create_contact)(dWorldID, dJointGroupID, const dContact *);
    void (*attach)(dJointID, dBodyID, dBodyID);
    void (*joint_destroy)(dJointID);
    void (*group_empty)(dJointGroupID);
    void (*group_destroy)(dJointGroupID);
    void (*body_destroy)(dBodyID);
    void (*world_destroy)(dWorldID);
    int (*world_step)(dWorldID, dReal);
    int (*world_quick_step)(dWorldID, dReal);
} real;

static pthread_once_t resolved = PTHREAD_ONCE_INIT;
/* once, not a store at every step: steps in several threads would race on it (helgrind) */
static pthread_once_t stepped_once = PTHREAD_ONCE_INIT;

static void note_stepped(void) { config.stepped = 1; }

/* dlsym returns an object pointer; memcpy turns it into a function pointer without the cast
   ISO C leaves undefined. */
static void find(void *fn_ptr, size_t size, const char *name)
{
    void *symbol = dlsym(RTLD_NEXT, name);
    if (!symbol) {
        fprintf(stderr, "impax: %s not found after libimpax_preload.so (is ODE linked?)\n", name);
        exit(2);
    }
    memcpy(fn_ptr, &symbol, size);
}

static void resolve(void)
{
    find(&real.create_contact, sizeof real.create_contact, "dJointCreateContact");
    find(&real.attach, sizeof real.attach, "dJointAttach");
    find(&real.joint_destroy, sizeof real.joint_destroy, "dJointDestroy");
    find(&real.group_empty, sizeof real.group_empty, "dJointGroupEmpty");
    find(&real.group_destroy, sizeof real.group_destroy, "dJointGroupDestroy");
    find(&real.body_destroy, sizeof real.body_destroy, "dBodyDestroy");
    find(&real.world_destroy, sizeof real.world_destroy, "dWorldDestroy");
    find(&real.world_step, sizeof real.world_step, "dWorldStep");
    find(&real.world_quick_step, sizeof real.world_quick_step, "dWorldQuickStep");
}

/* 1 if this call goes straight to ODE, unseen by the adapter and without the world list's lock. */
static int bypass(void) { return config.passthrough || ipx_ode_own_call(); }

/* Before main: a bad configuration stops the program here, before it simulates anything. */
__attribute__((constructor)) static void shim_start(void)
{
    char msg[512];
    if (shim_config_read(&config, msg, sizeof msg) != 0) {
        fprintf(stderr, "impax: %s\n", msg);
        exit(2);
    }
    pthread_once(&resolved, resolve);
    if (!config.passthrough) ipx_ode_capture_messages(config.verbose); /* summed up at exit */
}

__attribute__((destructor)) static void shim_stop(void)
{
    shim_worlds_finish(&config);
    if (!config.passthrough) ipx_ode_report_messages(stderr, "impax: ");
}

dJointID dJointCreateContact(dWorldID world, dJointGroupID group, const dContact *contact)
{
    pthread_once(&resolved, resolve);
    dJointID joint = real.create_contact(world, group, contact);
    if (!bypass() && joint && contact) {
        const shim_world *w = shim_world_get(&config, world);
        if (w && w->ctx) ipx_ode_on_contact_created(w->ctx, joint, group, contact);
    }
    return joint;
}

void dJointAttach(dJointID joint, dBodyID body1, dBodyID body2)
{
    pthread_once(&resolved, resolve);
    real.attach(joint, body1, body2);
    if (bypass() || !joint || dJointGetType(joint) != dJointTypeContact) return;
    dBodyID body = body1 ? body1 : body2;
    /* a contact attached to nothing names no world: every context looks for it */
    ipx_ode_on_contact_attached(body ? shim_world_find(dBodyGetWorld(body)) : NULL, joint, body1,
                                body2);
}

void dJointDestroy(dJointID joint)
{
    pthread_once(&resolved, resolve);
    if (!bypass()) ipx_ode_on_joint_destroyed(NULL, joint);
    real.joint_destroy(joint);
}

void dJointGroupEmpty(dJointGroupID group)
{
    pthread_once(&resolved, resolve);
    if (!bypass()) ipx_ode_on_group_emptied(NULL, group);
    real.group_empty(group);
}

void dJointGroupDestroy(dJointGroupID group)
{
    pthread_once(&resolved, resolve);
    if (!bypass()) ipx_ode_on_group_emptied(NULL, group);
    real.group_destroy(group);
}

void dBodyDestroy(dBodyID body)
{
    pthread_once(&resolved, resolve);
    if (!bypass()) ipx_ode_on_body_destroyed(NULL, body);
    real.body_destroy(body);
}

void dWorldDestroy(dWorldID world)
{
    pthread_once(&resolved, resolve);
    if (!bypass()) shim_world_forget(world);
    real.world_destroy(world);
}

/* pre-step (impacts), ODE's own step, post-step; the return value is ODE's. */
static int step(dWorldID world, dReal h, int (*ode_step)(dWorldID, dReal))
{
    pthread_once(&stepped_once, note_stepped);
    shim_world *w = bypass() || !world ? NULL : shim_world_get(&config, world);
    if (!w || !w->ctx) return ode_step(world, h);
    ipx_ode_pre_step(w->ctx, h);
    const int ok = ode_step(world, h);
    ipx_ode_post_step(w->ctx);
    w->time_s += h;
    return ok;
}

int dWorldStep(dWorldID world, dReal stepsize)
{
    pthread_once(&resolved, resolve);
    return step(world, stepsize, real.world_step);
}

int dWorldQuickStep(dWorldID world, dReal stepsize)
{
    pthread_once(&resolved, resolve);
    return step(world, stepsize, real.world_quick_step);
}
