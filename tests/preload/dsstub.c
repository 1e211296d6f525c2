/* A headless drawstuff (ODE's demo front end) for running ODE's own demos as real clients of
   the shim: dsSimulationLoop calls start(), then step(0) DS_FRAMES times (default 1000), then
   stop(). DS_CMDS="b@0,s@40,space@60" presses key b at frame 0, s at frame 40 and the space
   bar at frame 60. Drawing is a no-op; dsPrint writes to stdout and dsError exits with status
   1. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <drawstuff/drawstuff.h>

static int stop_requested;

/* Presses every key DS_CMDS schedules for frame. */
static void press_keys(struct dsFunctions *fn, const char *cmds, int frame)
{
    for (const char *p = cmds; p && *p;) {
        int at = -1, key = p[0];
        if (p[0] && p[1] == '@') at = atoi(p + 2);
        if (strncmp(p, "space@", 6) == 0) at = atoi(p + 6), key = ' ';
        if (at == frame && fn->command) fn->command(key);
        p = strchr(p, ',');
        if (p) p++;
    }
}

void dsSimulationLoop(int argc, char **argv, int window_width, int window_height,
                      struct dsFunctions *fn)
{
    (void)argc, (void)argv, (void)window_width, (void)window_height;
    const char *frames_text = getenv("DS_FRAMES"), *cmds = getenv("DS_CMDS");
    const int frames = frames_text ? atoi(frames_text) : 1000;
    if (fn->start) fn->start();
    for (int frame = 0; frame < frames && !stop_requested; frame++) {
        press_keys(fn, cmds, frame);
        fn->step(0);
    }
    if (fn->stop) fn->stop();
}

void dsError(const char *msg, ...)
{
    va_list ap;
    va_start(ap, msg);
    fputs("drawstuff error: ", stderr);
    vfprintf(stderr, msg, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

void dsDebug(const char *msg, ...)
{
    va_list ap;
    va_start(ap, msg);
    vfprintf(stderr, msg, ap);
    va_end(ap);
    abort();
}

void dsPrint(const char *msg, ...)
{
    va_list ap;
    va_start(ap, msg);
    vprintf(msg, ap);
    va_end(ap);
}

void dsStop(void) { stop_requested = 1; }
double dsElapsedTime(void) { return 1.0 / 60.0; }

/* The rest draws or sets up drawing: nothing to do without a window. */
void dsSetViewpoint(float xyz[3], float hpr[3]) { (void)xyz, (void)hpr; }
void dsGetViewpoint(float xyz[3], float hpr[3])
{
    memset(xyz, 0, 3 * sizeof xyz[0]);
    memset(hpr, 0, 3 * sizeof hpr[0]);
}
void dsSetTexture(int texture_number) { (void)texture_number; }
void dsSetColor(float r, float g, float b) { (void)r, (void)g, (void)b; }
void dsSetColorAlpha(float r, float g, float b, float a) { (void)r, (void)g, (void)b, (void)a; }
void dsSetSphereQuality(int n) { (void)n; }
void dsSetCapsuleQuality(int n) { (void)n; }
void dsSetDrawMode(int mode) { (void)mode; }
void dsDrawBox(const float pos[3], const float R[12], const float sides[3])
{
    (void)pos, (void)R, (void)sides;
}
void dsDrawSphere(const float pos[3], const float R[12], float radius)
{
    (void)pos, (void)R, (void)radius;
}
void dsDrawTriangle(const float pos[3], const float R[12], const float *v0, const float *v1,
                    const float *v2, int solid)
{
    (void)pos, (void)R, (void)v0, (void)v1, (void)v2, (void)solid;
}
void dsDrawTriangles(const float pos[3], const float R[12], const float *v, const int n, int solid)
{
    (void)pos, (void)R, (void)v, (void)n, (void)solid;
}
void dsDrawCylinder(const float pos[3], const float R[12], float length, float radius)
{
    (void)pos, (void)R, (void)length, (void)radius;
}
void dsDrawCapsule(const float pos[3], const float R[12], float length, float radius)
{
    (void)pos, (void)R, (void)length, (void)radius;
}
void dsDrawLine(const float pos1[3], const float pos2[3]) { (void)pos1, (void)pos2; }
void dsDrawConvex(const float pos[3], const float R[12], const float *planes, unsigned planecount,
                  const float *points, unsigned pointcount, const unsigned *polygons)
{
    (void)pos, (void)R, (void)planes, (void)planecount, (void)points, (void)pointcount,
        (void)polygons;
}
void dsDrawBoxD(const double pos[3], const double R[12], const double sides[3])
{
    (void)pos, (void)R, (void)sides;
}
void dsDrawSphereD(const double pos[3], const double R[12], const float radius)
{
    (void)pos, (void)R, (void)radius;
}
void dsDrawTriangleD(const double pos[3], const double R[12], const double *v0, const double *v1,
                     const double *v2, int solid)
{
    (void)pos, (void)R, (void)v0, (void)v1, (void)v2, (void)solid;
}
void dsDrawTrianglesD(const double pos[3], const double R[12], const double *v, const int n,
                      int solid)
{
    (void)pos, (void)R, (void)v, (void)n, (void)solid;
}
void dsDrawCylinderD(const double pos[3], const double R[12], float length, float radius)
{
    (void)pos, (void)R, (void)length, (void)radius;
}
void dsDrawCapsuleD(const double pos[3], const double R[12], float length, float radius)
{
    (void)pos, (void)R, (void)length, (void)radius;
}
void dsDrawLineD(const double pos1[3], const double pos2[3]) { (void)pos1, (void)pos2; }
void dsDrawConvexD(const double pos[3], const double R[12], const double *planes,
                   unsigned planecount, const double *points, unsigned pointcount,
                   const unsigned *polygons)
{
    (void)pos, (void)R, (void)planes, (void)planecount, (void)points, (void)pointcount,
        (void)polygons;
}
